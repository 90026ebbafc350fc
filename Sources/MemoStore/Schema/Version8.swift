extension Schema {
    /// Search finds what was typed: the index holds memos' texts folded as a search compares
    /// them (`Migration.SearchRule.version8`: `ß` as `ss`, full-width letters as plain ones, accents
    /// dropped) with each emoji a word of its own, so `strasse`, `abc` and `🍕` are found.
    /// The layout does not change: the index is filled again by the new rule.
    static let version8 = Migration(
        version: 8,
        sql: """
            DELETE FROM memo_search;
            """, backfill: indexAllMemosForSearchAgain)

    /// Puts every memo in the emptied search index, by the search text rule of version 8.
    static func indexAllMemosForSearchAgain(_ database: Database) throws {
        try Migration.indexEveryMemo(in: database, bySearchRuleOf: .version8)
    }
}
