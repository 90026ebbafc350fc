extension Schema {
    /// A tombstone keeps the text the memo had (`text`: a JSON object of its content, dates
    /// and the change that wrote it, `DeletedText`). When a change made concurrently with the
    /// delete keeps the memo alive, the memo takes the newer of the two texts: a tag change
    /// on one side never brings back an older text than the one the deleting side had
    /// written (SPEC §4b: text and tags merge separately). Tombstones from before carry none
    /// (NULL), as before.
    static let version7 = Migration(version: 7, sql: """
        ALTER TABLE memo_tombstone ADD COLUMN text TEXT;
        """)
}
