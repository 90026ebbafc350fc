extension Schema {
    /// The persistent history (docs/REFERENCE.md, History and undo): an entry per saved change, and
    /// for each memo it touched, the memo's state before it as a JSON image (NULL for a memo it
    /// created). `memo_id` does not reference `memo`: deleted memos keep their history.
    static let version4 = Migration(
        version: 4,
        sql: """
            CREATE TABLE history(
                seq INTEGER PRIMARY KEY AUTOINCREMENT,
                at INTEGER NOT NULL,
                kind TEXT NOT NULL,
                target INTEGER,
                memo_count INTEGER NOT NULL,
                summary TEXT NOT NULL,
                undone INTEGER NOT NULL DEFAULT 0
            );
            CREATE TABLE history_memo(
                seq INTEGER NOT NULL REFERENCES history(seq) ON DELETE CASCADE,
                memo_id INTEGER NOT NULL,
                before TEXT,
                PRIMARY KEY (seq, memo_id)
            ) WITHOUT ROWID;
            CREATE INDEX history_memo_by_memo ON history_memo(memo_id, seq);
            """)
}
