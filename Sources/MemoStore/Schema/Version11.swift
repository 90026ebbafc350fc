extension Schema {
    /// Search finds `don't` in `don’t` and `Groß` in `GROẞ`, a skin tone typed is required,
    /// and a prefix of letters never finds an emoji: the index holds memos' texts by
    /// `Migration.SearchRule.version11`. The layout does not change: the index is filled again by the
    /// new rule.
    static let version11 = Migration(
        version: 11,
        sql: """
            DELETE FROM memo_search;
            """, backfill: { try Migration.indexEveryMemo(in: $0, bySearchRuleOf: .version11) })
}
