extension Schema {
    /// A memo keeps its tag names in its row (`tag_names`: every tag, explicit and inline,
    /// in name order, one space apart; empty for none), written by `MemoTable` with the tags:
    /// a listing, search or export read them with the row, not from `memo_tag` a memo at a
    /// time (half the time of listing every memo, and a random read per search result).
    /// `memo_tag` stays what filters and sync read.
    static let version9 = Migration(
        version: 9,
        sql: """
            ALTER TABLE memo ADD COLUMN tag_names TEXT NOT NULL DEFAULT '';
            UPDATE memo SET tag_names = (SELECT group_concat(name, ' ') FROM (SELECT name FROM memo_tag WHERE memo_id = memo.id ORDER BY name))
            WHERE id IN (SELECT memo_id FROM memo_tag);
            """)
}
