extension MemoStore {
    /// What merging a memo from elsewhere did.
    package enum MergeResult: Equatable, Sendable {
        case added, updated, skipped
    }
}

/// Memos brought in from an import or another store, matched by uuid, with the versions
/// they carry: unlike a user's edit, a merge may add a memo with its own dates, update one
/// only when the draft is newer, or leave it be.
struct ImportMerging {
    let database: Database
    let reader: MemoReader
    /// The one writer of memo rows.
    let table: MemoTable
    /// Records each change in the history, in the change's transaction.
    let recorder: ChangeRecorder

    /// Brings in a memo from an import (or another store), matched by uuid, as part of a
    /// change made at `time`: a new uuid is added with its own dates; a known one is updated
    /// when the draft was edited (it has an update date) later than the memo was last
    /// written, and skipped otherwise. An update takes the draft's text, update date, tags and
    /// insert date (the memo was moved there: docs/REFERENCE.md, Back-dating); the memo keeps
    /// its id. A draft that was never edited does not update: its insert date is not an update
    /// date, and no date is made up for it. `known` is the memo with the draft's uuid as the
    /// caller read it in this change, when it did (an import reads it first to match records).
    func merge(
        _ draft: MemoDraft, at time: Timestamp, existing known: Memo?? = nil
    ) throws(StoreError)
        -> MemoStore.MergeResult
    {
        let inline = TagName.inlineTags(in: draft.content)
        let explicit = try explicitTags(of: draft, inline: inline)
        let found: Memo?
        if let known { found = known } else { found = try reader.memo(uuid: draft.uuid) }
        guard let existing = found else {
            try MemoContent.validate(draft.content)
            try recorder.recorded(.import, at: time) {
                // An imported memo is the same version as its source's copy, so the store keeps
                // versions from now on: a later edit or delete is newer.
                let stamp = try recorder.versionedStamp(at: time)
                if try isDeleted(uuid: draft.uuid) {
                    // Brought back from a backup after a delete: newer than the delete, as an
                    // undone delete is (the change's stamp counts on the tombstone).
                    _ = try table.insert(draft, explicitTags: explicit, inlineTags: inline, facts: nil)
                } else {
                    let carried = carriedVersion(of: draft, explicitTags: explicit)
                    _ = try table.insert(
                        draft, explicitTags: explicit, inlineTags: inline, facts: stamp, origin: .imported(carried))
                    if let carried { try SyncIdentity(database: database).observe(clock: carried.changedAt) }
                }
            }
            return .added
        }
        guard let updateDate = draft.updateDate, updateDate > (existing.updateDate ?? existing.insertDate) else {
            return .skipped
        }
        try MemoContent.validate(draft.content)
        try recorder.recorded(.import, at: time) {
            _ = try table.updateContent(
                of: existing.id, to: draft.content, updateDate: updateDate, reading: draft.references)
            try table.replaceTags(of: existing.id, explicit: explicit, inline: inline)
            if draft.insertDate != existing.insertDate {
                _ = try table.move(existing.id, to: draft.insertDate, updateDate: updateDate)
            }
        }
        return .updated
    }

    /// Makes the `#ID` links to `old` of the memos an import wrote with the links their
    /// records carried (`isCarrying`, by uuid) name `new`, as part of the change made at
    /// `time`: the import added the record its file names `old` under the uuid `new`, its own
    /// naming an unrelated memo here, and the file's links to it mean that record.
    func moveCarriedLinks(
        from old: String, to new: String, at time: Timestamp, carriedBy isCarrying: (String) -> Bool
    ) throws(StoreError) {
        try recorder.recorded(.import, at: time) {
            let rows = try database.cached(
                "SELECT DISTINCT l.memo_id, m.uuid FROM memo_link l JOIN memo m ON m.id = l.memo_id WHERE l.target_uuid = ?1"
            )
            try rows.bind([.text(old)])
            var carrying: [Int64] = []
            while try rows.step() {
                if isCarrying(rows.string(at: 1)) { carrying.append(rows.int64(at: 0)) }
            }
            for id in carrying { try table.moveLinks(of: id, from: old, to: new) }
        }
    }

    /// The version the draft's file says its source held, when it fits the draft
    /// (`MemoVersion.describes`).
    private func carriedVersion(of draft: MemoDraft, explicitTags: [String]) -> MemoVersion? {
        guard let version = draft.version,
            version.describes(
                content: draft.content, insertDate: draft.insertDate.millisecondsSince1970,
                updateDate: draft.updateDate?.millisecondsSince1970, explicitTags: explicitTags)
        else { return nil }
        return version
    }

    private static let tombstoneSQL = FixedSQL("SELECT 1 FROM memo_tombstone WHERE uuid = ?1")

    /// Whether this store deleted the memo (it keeps its tombstone).
    private func isDeleted(uuid: String) throws -> Bool {
        try database.cached(Self.tombstoneSQL).scalarInt([.text(uuid)]) != nil
    }

    /// The draft's tags that its text does not carry inline: a memo exported with its tags
    /// and imported again keeps its inline tags inline, so they still follow edits.
    private func explicitTags(of draft: MemoDraft, inline: [String]) throws(StoreError) -> [String] {
        let inline = Set(inline)
        return try MemoEdits.normalized(draft.tags).filter { !inline.contains($0) }
    }
}
