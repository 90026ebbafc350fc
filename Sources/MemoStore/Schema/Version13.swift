extension Schema {
    /// A memo keeps in its row whether its sync versions are only the names of its state, as
    /// an import derives them (`state_named`, 1 or 0; `SyncStamping.isOnlyItsStateSQL`): an
    /// export writes a memo's version unless it is (`MemoVersion.jsonSQL`), and reads the fact
    /// with the row instead of hashing every memo's text to decide it (28% of an export). It
    /// keeps whether it has links (`linked`, 1 when `memo_link` holds a row of it), so an export
    /// looks for the links of those alone (a look-up a memo, 14% of an export without links).
    /// Every change keeps both for the memos it touched (`SyncStamping.keepExportFactsOfStaged`),
    /// and a first sync `state_named` for the memos it versions.
    ///
    /// The backfill is the test of its day, spelled out here: the names are the keys of the
    /// store's versions (`StateDigest`), which never change, or no store would know its own.
    static let version13 = Migration(
        version: 13,
        sql: """
            ALTER TABLE memo ADD COLUMN state_named INTEGER NOT NULL DEFAULT 0;
            ALTER TABLE memo ADD COLUMN linked INTEGER NOT NULL DEFAULT 0;
            UPDATE memo SET linked = 1 WHERE id IN (SELECT memo_id FROM memo_link);
            UPDATE memo SET state_named = 1
            WHERE text_seq = 1 AND substr(text_by, 1, 1) = '~'
              AND memo_names_its_state(content, insert_date, update_date,
                                       CASE WHEN tag_names <> '' THEN (SELECT group_concat(name, char(31)) FROM (
                                           SELECT named.name FROM memo_tag AS named
                                           WHERE named.memo_id = memo.id AND named.inline = 0 ORDER BY named.name)) END,
                                       text_by, version, tags_version, support)
              AND (tag_names = '' OR NOT EXISTS (SELECT 1 FROM memo_tag WHERE memo_id = memo.id AND inline = 0
                                                 AND (added_seq <> 1 OR json_extract(memo.tags_version, '$."' || added_by || '"') IS NULL)));
            """)
}
