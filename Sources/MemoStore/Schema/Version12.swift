extension Schema {
    /// A memo keeps the count of its text's words in its row (`word_count`), written by
    /// `MemoTable` with the text by the live rule (`WordCount`), and the insert-date index
    /// carries it, so `stats` sums the words of a million memos from the index alone instead of
    /// reading every text (the whole table). The index keeps its order, insert date then id:
    /// every listing and range read walks it as before.
    ///
    /// The backfill counts by the rule frozen with it (`Version12WordRule`), not the live one:
    /// a later change of the rule counts again in a migration of its own.
    static let version12 = Migration(
        version: 12,
        sql: """
            ALTER TABLE memo ADD COLUMN word_count INTEGER NOT NULL DEFAULT 0;
            DROP INDEX memo_by_insert_date;
            CREATE INDEX memo_by_insert_date ON memo(insert_date, id, word_count);
            """, backfill: countTheWordsOfEveryMemo)
}
