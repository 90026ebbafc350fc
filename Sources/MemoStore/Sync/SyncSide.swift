/// This store's side of a sync (docs/REFERENCE.md, Sync), as MemoSync's exchange uses it: open one
/// write transaction, read the records a peer lacks, write what the merge decided with how far
/// this store now has the peer's changes, commit. The exchange needs nothing else of a store, so the two sides of a
/// sync need not share a process.
struct SyncSide {
    let location: StoreLocation
    /// The file whose copies make a store of their own (`SyncIdentity.becomeOwnStoreIfCopied`):
    /// nil in memory, and for a sealed store, whose every save is a new file.
    let copyCheckedFile: StoreFile?
    let database: Database
    /// The sync's part of the one writer of memo rows, which writes what the merge decided.
    let syncStamping: SyncStamping
    /// Records the sync as one change in the history.
    let recorder: ChangeRecorder

    /// The random id of this store: what peers remember it by.
    func syncStoreID() throws(StoreError) -> String {
        try StoreError.wrapping { try SyncIdentity(database: database).storeID() }
    }

    /// Which file holds this store ("" in memory): two sides of a sync must be two files.
    var fileIdentity: String {
        StoreFile(location)?.identity ?? ""
    }

    /// Whether `path` names this store's own file (by any name, or once its missing folders
    /// exist), for a sync to refuse before it opens or creates anything there.
    func isOwnFile(_ path: String) -> Bool {
        StoreFile(location)?.isNamed(by: path) ?? false
    }

    /// Whether this store can only be read: a sync writes to both stores.
    var isReadOnly: Bool { database.isReadOnly }

    /// Opens this side of a sync made at `time`: one write transaction of its own. A store
    /// whose file is a copy of another store's takes an id of its own first, as does one that
    /// carries `peer`'s id (the two are copies of each other). Returns the store's id.
    ///
    /// Refused while a batch is open here: the peer commits what it receives, which a
    /// rollback here could not take back, and the batch's changes are stamped only when it
    /// is saved, so a sync inside it would not send them.
    func beginSync(at time: Timestamp, peer: String) throws(StoreError) -> String {
        if !database.isAutocommit { throw .refused(.syncInBatch) }
        try recorder.begin(.sync, at: time)
        return try StoreError.wrapping {
            let identity = SyncIdentity(database: database)
            try identity.becomeOwnStoreIfCopied(file: copyCheckedFile)
            if try identity.storeID() == peer { try identity.renew() }
            return try identity.storeID()
        }
    }

    /// How far this store has `peer`'s changes, or nil.
    func syncCursor(of peer: String) throws(StoreError) -> SyncCursor? {
        try StoreError.wrapping { try SyncIdentity(database: database).received(from: peer) }
    }

    /// What a peer at `cursor` lacks of this store, after this sync's side is set up: a
    /// cursor this store does not hold (a peer saw a history this store does not have: it
    /// was restored from a backup, or is a copy) makes it a store of its own and sends all;
    /// a store that keeps no versions yet gives its memos a first one; a new checkpoint tells
    /// the peer how far it now is; then the sync takes its change number, `seq`.
    func syncChanges(since cursor: SyncCursor?, at time: Timestamp) throws(StoreError) -> SyncChanges {
        try StoreError.wrapping {
            let identity = SyncIdentity(database: database)
            var since = cursor
            if let cursor, try !identity.holds(cursor) {
                try identity.renew()
                since = nil
            }
            try identity.adoptUnversionedMemos(at: time, stamping: syncStamping)
            let checkpoint = try identity.checkpoint()
            let seq = try identity.nextStamp(at: time).seq
            return SyncChanges(
                storeID: try identity.storeID(), cursor: checkpoint, cursorAfterWrites: try identity.checkpoint(),
                seq: seq, records: try syncRecords(changedAfter: since?.seq ?? -1))
        }
    }

    /// The memos and tombstones changed after change number `seq`.
    private func syncRecords(changedAfter seq: Int64) throws -> [SyncRecord] {
        var records: [SyncRecord] = []
        // `change_seq > 0` lets SQLite use the partial index memo_by_change_seq.
        let live = try database.prepare(
            "SELECT \(Self.liveColumns) FROM memo WHERE change_seq > ?1 AND change_seq > 0 ORDER BY change_seq")
        try live.bind([.integer(seq)])
        while try live.step() { records.append(try liveRecord(live)) }
        let dead = try database.prepare(
            "SELECT \(Self.deadColumns) FROM memo_tombstone WHERE change_seq > ?1 ORDER BY change_seq")
        try dead.bind([.integer(seq)])
        while try dead.step() { records.append(Self.tombstone(dead)) }
        return records
    }

    /// This store's state of each memo in `uuids` it ever had (live or a tombstone).
    func syncRecords(uuids: [String]) throws(StoreError) -> [SyncRecord] {
        try StoreError.wrapping {
            let live = try database.cached("SELECT \(Self.liveColumns) FROM memo WHERE uuid = ?1")
            let dead = try database.cached("SELECT \(Self.deadColumns) FROM memo_tombstone WHERE uuid = ?1")
            return try uuids.compactMap { uuid in
                try live.firstRow([.text(uuid)], liveRecord) ?? dead.firstRow([.text(uuid)], Self.tombstone)
            }
        }
    }

    /// Writes what the merge decided, as change `seq`, and notes in the same transaction that
    /// this store has `peer`'s changes up to `cursor`, with the clock moved past `clock`, the
    /// latest change seen.
    func applySync(
        _ records: [SyncRecord], seq: Int64, received cursor: SyncCursor, from peer: String,
        clock: Int64
    ) throws(StoreError) {
        try StoreError.wrapping {
            for record in records { try syncStamping.write(record, seq: seq) }
            try SyncIdentity(database: database).noteReceived(from: peer, upTo: cursor, clock: clock)
        }
    }

    /// Commits the sync's own change, recorded in the history as a `sync` with `peer` (how
    /// the other store was named), so `history` and `undo --sync` can say which store it was.
    func commitSync(peer: String) throws(StoreError) {
        try recorder.commit(summary: HistoryEntry.syncSummary(peer: peer))
    }

    /// Discards the sync's own change, if it is still open.
    func rollbackSync() {
        guard recorder.kind == .sync, recorder.isOpen else { return }
        try? recorder.rollback()
    }

    private static let liveColumns =
        "uuid, content, insert_date, update_date, version, changed_at, changed_by, id, tags_version, "
        + "text_by, text_seq, \(MemoVersion.supportSQL)"

    private func liveRecord(_ row: Statement) throws -> SyncRecord {
        var record = SyncRecord(
            uuid: row.string(at: 0),
            live: SyncRecord.Live(
                content: row.string(at: 1), insertDate: row.int64(at: 2),
                updateDate: row.isNull(at: 3) ? nil : row.int64(at: 3),
                tags: try syncTags(of: row.int64(at: 7)), links: try syncLinks(of: row.int64(at: 7))),
            version: VersionVector(json: row.string(at: 4)), tagsVersion: VersionVector(json: row.string(at: 8)),
            textBy: row.isText(at: 9) ? row.string(at: 9) : "", textSeq: row.int64(at: 10),
            changedAt: row.int64(at: 5), changedBy: row.string(at: 6))
        record.support = VersionVector(json: row.isText(at: 11) ? row.string(at: 11) : "{}")
        return record
    }

    /// Memo `id`'s tags by name. A row another program wrote with a name that is not text
    /// or a flag that is not a number is left out, so the rest still count.
    private func syncTags(of id: Int64) throws -> [SyncRecord.Tag] {
        let rows = try database.cached(
            "SELECT name, inline, added_by, added_seq FROM memo_tag WHERE memo_id = ?1 ORDER BY name")
        try rows.bind([.integer(id)])
        var tags: [SyncRecord.Tag] = []
        while try rows.step() {
            guard rows.isText(at: 0), rows.isNumber(at: 1) else { continue }
            tags.append(
                SyncRecord.Tag(
                    name: rows.string(at: 0), inline: rows.int64(at: 1) != 0,
                    addedBy: rows.isText(at: 2) ? rows.string(at: 2) : "", addedSeq: rows.int64(at: 3)))
        }
        return tags
    }

    /// Memo `id`'s links, each with the uuid of the memo it names (nil: none).
    private func syncLinks(of id: Int64) throws -> [SyncRecord.Link] {
        let rows = try database.cached(
            """
            SELECT start, length, target_uuid
            FROM memo_link WHERE memo_id = ?1 ORDER BY start
            """)
        try rows.bind([.integer(id)])
        var links: [SyncRecord.Link] = []
        while try rows.step() {
            links.append(
                SyncRecord.Link(
                    start: rows.int64(at: 0), length: rows.int64(at: 1),
                    target: rows.isText(at: 2) ? rows.string(at: 2) : nil))
        }
        return links
    }

    private static let deadColumns = "uuid, version, changed_at, changed_by, tags, text"

    private static func tombstone(_ row: Statement) -> SyncRecord {
        var record = SyncRecord(
            uuid: row.string(at: 0), live: nil, version: VersionVector(json: row.string(at: 1)),
            changedAt: row.int64(at: 2), changedBy: row.string(at: 3))
        record.deletedTags = SyncRecord.Tag.deleted(json: row.isText(at: 4) ? row.string(at: 4) : "[]")
        record.deletedText = DeletedText(json: row.isText(at: 5) ? row.string(at: 5) : nil)
        return record
    }
}
