import MemoStore

extension Notebook {
    /// Changes a memo's text (setting its update date), its tags (the given set becomes its
    /// whole explicit set), or both, in one transaction: one change to undo. With neither,
    /// the memo as it is, or a not-found error.
    func update(id: Int64, content: String?, tags: [String]?) throws -> Memo {
        try store.recordingChange(.edit, at: changeTime) {
            var memo = try store.existingMemo(id: id)
            if let content { memo = try store.updateContent(id: id, to: content, at: clock.now()) }
            if let tags { memo = try store.replaceTags(of: id, with: tags, at: changeTime) }
            return memo
        }
    }
}
