extension MemoStore {
    /// What merging a memo from elsewhere did.
    package enum MergeResult: Equatable, Sendable {
        case added, updated, skipped
    }

    /// Brings in a memo from an import (or another store), matched by uuid: a new uuid is
    /// added with its own dates; a known one is updated when the draft is newer (by update
    /// date, else insert date) and skipped when it is as old or older. An update takes the
    /// draft's text, update date and tags; the memo keeps its id and insert date, so its
    /// place in the order.
    @discardableResult
    package func merge(_ draft: MemoDraft) throws(StoreError) -> MergeResult {
        let inline = TagName.inlineTags(in: draft.content)
        var draft = draft
        draft.tags = try explicitTags(of: draft, inline: inline)
        guard let existing = try memo(uuid: draft.uuid) else {
            _ = try recorded(.import) { try insertRow(draft, inlineTags: inline) }
            return .added
        }
        guard (draft.updateDate ?? draft.insertDate) > (existing.updateDate ?? existing.insertDate) else { return .skipped }
        try MemoContent.validate(draft.content)
        try recorded(.import) {
            try stageBeforeImage(of: existing.id)
            try database.cached("UPDATE memo SET content = ?2, update_date = ?3 WHERE id = ?1")
                .run([.integer(existing.id), .text(draft.content), .integer((draft.updateDate ?? draft.insertDate).millisecondsSince1970)])
            try database.cached("UPDATE memo_search SET text = ?2 WHERE rowid = ?1")
                .run([.integer(existing.id), .text(SearchText.indexed(draft.content))])
            try database.cached("DELETE FROM memo_tag WHERE memo_id = ?1").run([.integer(existing.id)])
            try attach(draft.tags, to: existing.id, inline: false)
            try attach(inline, to: existing.id, inline: true)
        }
        return .updated
    }

    /// The draft's tags that its text does not carry inline: a memo exported with its tags
    /// and imported again keeps its inline tags inline, so they still follow edits.
    private func explicitTags(of draft: MemoDraft, inline: [String]) throws(StoreError) -> [String] {
        let inline = Set(inline)
        return try normalized(draft.tags).filter { !inline.contains($0) }
    }
}
