extension Schema {
    /// A tombstone keeps the text the memo had (`text`: a JSON object of its content, dates
    /// and the change that wrote it, `DeletedText`). When a change made concurrently with the
    /// delete keeps the memo alive, the memo takes the newer of the two texts: a tag change
    /// on one side never brings back an older text than the one the deleting side had
    /// written (docs/REFERENCE.md, Sync: text and tags merge separately). Tombstones from before
    /// carry none (NULL), as before.
    ///
    /// A memo keeps the changes that keep it alive (`support`, a version vector of the latest
    /// change of each concurrent line of changes), apart from all it has seen (`version`,
    /// `tags_version`): a delete removes a memo when it saw every change that keeps it alive.
    /// Before, a delete had to see all the memo had seen, so a memo that outlived one delete
    /// (by a change the delete had not seen) and learnt of it kept that delete's knowledge as
    /// changes, and outlived every later delete too. NULL for memos from before: what they
    /// have seen counts, as before.
    static let version7 = Migration(
        version: 7,
        sql: """
            ALTER TABLE memo_tombstone ADD COLUMN text TEXT;
            ALTER TABLE memo ADD COLUMN support TEXT;
            """)
}
