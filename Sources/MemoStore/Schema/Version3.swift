extension Schema {
    /// Replaces the trigger-fed `unicode61` index of version 2, which could not find a
    /// Japanese word inside a sentence nor a Korean word with a particle attached, by
    /// `memo_search`: the same tokenizer over the text's indexed form (now `SearchText`'s),
    /// where runs of CJK text are cut into overlapping pairs of characters. Swift computes that text, so
    /// the store keeps the index in step in the same transaction as each change (no triggers:
    /// another SQLite client may still write memos, which are then just not searchable).
    /// The index holds its own copy of the indexed text, so a row can always be removed by
    /// its rowid whatever happened to the memo since.
    static let version3 = Migration(
        version: 3,
        sql: """
            DROP TRIGGER memo_fts_insert;
            DROP TRIGGER memo_fts_delete;
            DROP TRIGGER memo_fts_update;
            DROP TABLE memo_fts;
            CREATE VIRTUAL TABLE memo_search USING fts5(text, tokenize = 'unicode61 remove_diacritics 2');
            """, backfill: indexAllMemosForSearch)

    /// Puts every memo in the search index, by the search text rule of version 3.
    static func indexAllMemosForSearch(_ database: Database) throws {
        try Migration.indexEveryMemo(in: database, bySearchRuleOf: .version3)
    }
}
