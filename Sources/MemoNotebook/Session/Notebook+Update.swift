import MemoStore

extension Notebook {
    /// Changes a memo's text (setting its update date), its tags (the given set becomes its
    /// whole explicit set), its insert date (a move, as `edit ID --date`), or several, in one
    /// transaction: one change to undo. With none, the memo as it is, or a not-found error.
    func update(id: Int64, content: String?, tags: [String]?, date: DateArgument? = nil) throws -> Memo {
        try store.recordingChange(.edit, at: changeTime) {
            var memo = try store.existingMemo(id: id)
            if let date {
                let now = clock.now()
                memo = try store.move(
                    id: id, to: try backdated(date, now: now), content: content, reading: .asWrittenHere, at: now)
            } else if let content {
                memo = try store.updateContent(id: id, to: content, reading: .asWrittenHere, at: clock.now())
            }
            if let tags { memo = try store.replaceTags(of: id, with: tags, at: changeTime) }
            return memo
        }
    }
}
