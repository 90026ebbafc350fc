/// What it takes to insert a memo; the store assigns the id.
package struct MemoDraft: Sendable {
    package var uuid: String
    package var content: String
    package var insertDate: Timestamp
    package var updateDate: Timestamp?
    /// Tags given explicitly; inline `@tags` in the content are added by the store.
    package var tags: [String]
    /// For a memo from an export: the version its source held, if the file said.
    package var version: MemoVersion?
    /// How its text's references are read: memo's own writing, the links an export carried,
    /// or a foreign record's text, whose bare `#ID` names no memo.
    package var references: ReferenceReading

    package init(
        uuid: String, content: String, insertDate: Timestamp,
        updateDate: Timestamp? = nil, tags: [String] = [], version: MemoVersion? = nil,
        references: ReferenceReading = .asWrittenHere
    ) {
        self.references = references
        self.uuid = uuid
        self.content = content
        self.insertDate = insertDate
        self.updateDate = updateDate
        self.tags = tags
        self.version = version
    }
}

/// A tag and how many memos carry it.
package struct TagCount: Equatable, Sendable {
    package var name: String
    package var count: Int
}
