/// The store's schema history. Each migration is frozen once shipped: fix forward with a
/// new one. Versions live in `PRAGMA user_version`.
enum Schema {
    /// Marks version 2 and later stores as memo's own (`PRAGMA application_id`, "MEMO").
    static let applicationID: Int64 = 0x4D45_4D4F

    static let migrations: [Migration] = [version1, version2, version3, version4]

    static let currentVersion = migrations.count

    /// The layout the migrations end in, created in one step for a new store: replaying
    /// them builds and drops a whole full-text index, most of the start-up of
    /// `memo --in-memory`. `SchemaTests` checks it matches the migrated layout exactly.
    static let fresh = """
        CREATE TABLE memo(
            id INTEGER PRIMARY KEY AUTOINCREMENT,
            uuid TEXT NOT NULL UNIQUE,
            content TEXT NOT NULL,
            insert_date INTEGER NOT NULL,
            update_date INTEGER
        );
        CREATE INDEX memo_by_insert_date ON memo(insert_date, id);
        CREATE TABLE memo_tag(
            memo_id INTEGER NOT NULL REFERENCES memo(id) ON DELETE CASCADE,
            name TEXT NOT NULL,
            inline INTEGER NOT NULL DEFAULT 0,
            PRIMARY KEY (memo_id, name)
        ) WITHOUT ROWID;
        CREATE INDEX memo_tag_by_name ON memo_tag(name, memo_id);
        CREATE VIRTUAL TABLE memo_search USING fts5(text, tokenize = 'unicode61 remove_diacritics 2');
        \(version4.sql)
        PRAGMA application_id = \(applicationID);
        PRAGMA user_version = \(currentVersion);
        """

    /// The earliest layout, exactly as the first memo wrote it: seconds as REAL.
    static let version1 = Migration(version: 1, sql: """
        CREATE TABLE memo(id INTEGER PRIMARY KEY AUTOINCREMENT, content TEXT NOT NULL, insert_date REAL NOT NULL);
        """)

    /// Adds uuids, millisecond dates, update dates, tags, the newest-first index and
    /// full-text search. Ids are kept, and so is the AUTOINCREMENT high-water mark, so an
    /// id deleted before the migration is still never reused.
    ///
    /// Seconds become milliseconds by truncation, never rounding up (`…59.9999` stays on its
    /// day): the REAL is first rounded to the microsecond, which its double carries exactly
    /// enough, so `…0.123` is not cut to `…0.122`; then floored to the millisecond.
    /// (Corrected after 0.1.0 rounded to the nearest millisecond; stores already migrated
    /// keep their dates.)
    static let version2 = Migration(version: 2, sql: """
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
        """, backfill: MemoStore.tagInlineWordsOfAllMemos)
}

extension Schema {
    /// Replaces the trigger-fed `unicode61` index of version 2, which could not find a
    /// Japanese word inside a sentence nor a Korean word with a particle attached, by
    /// `memo_search`: the same tokenizer over `SearchText.indexed(content)`, where runs of
    /// CJK text are cut into overlapping pairs of characters. Swift computes that text, so
    /// the store keeps the index in step in the same transaction as each change (no triggers:
    /// another SQLite client may still write memos, which are then just not searchable).
    /// The index holds its own copy of the indexed text, so a row can always be removed by
    /// its rowid whatever happened to the memo since.
    static let version3 = Migration(version: 3, sql: """
        DROP TRIGGER memo_fts_insert;
        DROP TRIGGER memo_fts_delete;
        DROP TRIGGER memo_fts_update;
        DROP TABLE memo_fts;
        CREATE VIRTUAL TABLE memo_search USING fts5(text, tokenize = 'unicode61 remove_diacritics 2');
        """, backfill: MemoStore.indexAllMemosForSearch)
}

extension Schema {
    /// The persistent history (SPEC §4a): an entry per saved change, and for each memo it
    /// touched, the memo's state before it as a JSON image (NULL for a memo it created).
    /// `memo_id` does not reference `memo`: deleted memos keep their history.
    static let version4 = Migration(version: 4, sql: """
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

/// One step of the schema: SQL run in one transaction together with the version bump,
/// and an optional backfill that needs Swift (such as reading inline tags).
struct Migration: Sendable {
    let version: Int
    let sql: String
    let backfill: (@Sendable (MemoStore) throws -> Void)?

    init(version: Int, sql: String, backfill: (@Sendable (MemoStore) throws -> Void)? = nil) {
        self.version = version
        self.sql = sql
        self.backfill = backfill
    }
}
