/// A memo as stored: identity, text, dates and tags.
package struct Memo: Equatable, Sendable {
    /// Increasing and never reused, local to one store.
    package var id: Int64
    /// RFC 4122 version 4, lower-case: the global identity used by import, export and merge.
    package var uuid: String
    package var content: String
    package var insertDate: Timestamp
    /// Nil until the memo is edited.
    package var updateDate: Timestamp?
    /// Lower-case tag names, sorted.
    package var tags: [String]

    package init(
        id: Int64, uuid: String, content: String, insertDate: Timestamp,
        updateDate: Timestamp?, tags: [String]
    ) {
        self.id = id
        self.uuid = uuid
        self.content = content
        self.insertDate = insertDate
        self.updateDate = updateDate
        self.tags = tags
    }
}
