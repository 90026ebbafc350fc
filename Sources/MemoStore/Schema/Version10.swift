extension Schema {
    /// The link index (docs/REFERENCE.md, Links): each reference a memo's text makes
    /// (`TextReferences`), by where it starts in the text's UTF-8 bytes, with the memo it named
    /// when the text was written, by uuid (`target_uuid`; NULL when it named none), so a link keeps
    /// its memo in a store where the ids differ. What a link names is fixed when its text is
    /// written, so every store agrees on it: a `#ID` that named no memo names none while the text
    /// keeps it (`KeptReferences`). `MemoTable` keeps it with the texts.
    ///
    /// The backfill reads references by the rule frozen with it (`Version10LinkRule`), not
    /// the live one: a later change of the rule fills the index again in a migration of its
    /// own, and cannot change what this one wrote.
    static let version10 = Migration(
        version: 10,
        sql: """
            CREATE TABLE memo_link(
                memo_id INTEGER NOT NULL REFERENCES memo(id) ON DELETE CASCADE,
                start INTEGER NOT NULL,
                length INTEGER NOT NULL,
                target_uuid TEXT,
                PRIMARY KEY (memo_id, start)
            ) WITHOUT ROWID;
            CREATE INDEX memo_link_by_target ON memo_link(target_uuid, memo_id);
            """, backfill: linkEveryMemo)
}
