extension MemoEdits {
    /// Moves a memo to another insert date (docs/REFERENCE.md, Back-dating), and so to its
    /// place in the order; its id, uuid and tags stay, its update date becomes `date`, the
    /// change's time. With `content`, the text is replaced in the same change, recorded as an
    /// edit; a move alone is recorded as a move. The same date and text again change nothing.
    func move(
        id: Int64, to insertDate: Timestamp, content: String?, reading: ReferenceReading, at date: Timestamp
    ) throws(StoreError) -> Memo {
        if let content { try MemoContent.validate(content) }
        return try recorder.recorded(content == nil ? .move : .edit, at: date) {
            let current = try reader.existingMemo(id: id)
            if let content, content != current.content {
                guard try table.updateContent(of: id, to: content, updateDate: date, reading: reading) else {
                    throw StoreError.memoNotFound([id])
                }
            }
            if insertDate != current.insertDate {
                guard try table.move(id, to: insertDate, updateDate: date) else { throw StoreError.memoNotFound([id]) }
            }
            return try reader.existingMemo(id: id)
        }
    }
}
