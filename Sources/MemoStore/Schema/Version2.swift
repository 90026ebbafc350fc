extension Schema {
    /// Adds uuids, millisecond dates, update dates, tags, the newest-first index and
    /// full-text search. Ids are kept, and so is the AUTOINCREMENT high-water mark, so an
    /// id deleted before the migration is still never reused.
    ///
    /// Seconds become milliseconds by truncation, never rounding up (`…59.9999` stays on its
    /// day): the REAL is first rounded to the microsecond, which its double carries exactly
    /// enough, so `…0.123` is not cut to `…0.122`; then floored to the millisecond.
    /// (Corrected after 0.1.0 rounded to the nearest millisecond; stores already migrated
    /// keep their dates. That edit of shipped SQL stays, as reverting it would bring the
    /// rounding back for version-1 stores still out there, but it was the last one:
    /// `SchemaTests` now pins every migration's SQL.)
    static let version2 = Migration(
        version: 2,
        sql: """
            CREATE TABLE memo_v2(
                id INTEGER PRIMARY KEY AUTOINCREMENT,
                uuid TEXT NOT NULL UNIQUE,
                content TEXT NOT NULL,
                insert_date INTEGER NOT NULL,
                update_date INTEGER
            );
            INSERT INTO memo_v2(id, uuid, content, insert_date)
                SELECT id,
                       lower(hex(randomblob(4))) || '-' || lower(hex(randomblob(2))) || '-4'
                           || substr(lower(hex(randomblob(2))), 2) || '-'
                           || substr('89ab', 1 + abs(random() % 4), 1)
                           || substr(lower(hex(randomblob(2))), 2) || '-' || lower(hex(randomblob(6))),
                       content,
                       (microseconds - ((microseconds % 1000) + 1000) % 1000) / 1000
                FROM (SELECT *, CAST(round(insert_date * 1000000) AS INTEGER) AS microseconds FROM memo);
            DELETE FROM sqlite_sequence WHERE name = 'memo_v2';
            INSERT INTO sqlite_sequence(name, seq) SELECT 'memo_v2', seq FROM sqlite_sequence WHERE name = 'memo';
            DROP TABLE memo;
            ALTER TABLE memo_v2 RENAME TO memo;
            CREATE INDEX memo_by_insert_date ON memo(insert_date, id);

            CREATE TABLE memo_tag(
                memo_id INTEGER NOT NULL REFERENCES memo(id) ON DELETE CASCADE,
                name TEXT NOT NULL,
                inline INTEGER NOT NULL DEFAULT 0,
                PRIMARY KEY (memo_id, name)
            ) WITHOUT ROWID;
            CREATE INDEX memo_tag_by_name ON memo_tag(name, memo_id);

            CREATE VIRTUAL TABLE memo_fts USING fts5(
                content, content = 'memo', content_rowid = 'id', tokenize = 'unicode61 remove_diacritics 2'
            );
            CREATE TRIGGER memo_fts_insert AFTER INSERT ON memo BEGIN
                INSERT INTO memo_fts(rowid, content) VALUES (new.id, new.content);
            END;
            CREATE TRIGGER memo_fts_delete AFTER DELETE ON memo BEGIN
                INSERT INTO memo_fts(memo_fts, rowid, content) VALUES ('delete', old.id, old.content);
            END;
            CREATE TRIGGER memo_fts_update AFTER UPDATE OF content ON memo BEGIN
                INSERT INTO memo_fts(memo_fts, rowid, content) VALUES ('delete', old.id, old.content);
                INSERT INTO memo_fts(rowid, content) VALUES (new.id, new.content);
            END;
            INSERT INTO memo_fts(memo_fts) VALUES ('rebuild');
            PRAGMA application_id = \(applicationID);
            """, backfill: tagInlineWordsOfAllMemos)
}
