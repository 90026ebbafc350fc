/// The store's schema history. Each migration is frozen once shipped: fix forward with a
/// new one. Versions live in `PRAGMA user_version`.
enum Schema {
    /// Marks version 2 and later stores as memo's own (`PRAGMA application_id`, "MEMO").
    static let applicationID: Int64 = 0x4D45_4D4F

    static let migrations: [Migration] = [version1, version2, version3, version4, version5]

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
        , version TEXT NOT NULL DEFAULT '{}', changed_at INTEGER NOT NULL DEFAULT 0, changed_by TEXT NOT NULL DEFAULT '', change_seq INTEGER NOT NULL DEFAULT 0);
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
        \(syncTables)
        INSERT INTO sync_identity(store_id) VALUES (\(newStoreID));
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

extension Schema {
    /// Sync (SPEC §4b). Each memo carries a version vector (`version`: for each store that
    /// changed it, how many changes it made, so two versions can be told newer, older or
    /// concurrent), the hybrid-logical time and store of its last change (`changed_at`,
    /// `changed_by`: which concurrent change is later) and `change_seq`, this store's
    /// counter at that change, so a sync reads only what changed since the last one with a
    /// peer (indexed only once set, so a store that never synced pays nothing for it). Deleted memos leave a tombstone with the same facts, so a delete travels and an
    /// old copy elsewhere cannot bring the memo back. `sync_identity` holds this store's
    /// random id and its counters; `sync_peer` how far each peer has this store's changes.
    /// Existing memos get a first version of this store, so two stores that were never
    /// synced treat the same uuid as concurrent changes.
    static let version5 = Migration(version: 5, sql: """
        ALTER TABLE memo ADD COLUMN version TEXT NOT NULL DEFAULT '{}';
        ALTER TABLE memo ADD COLUMN changed_at INTEGER NOT NULL DEFAULT 0;
        ALTER TABLE memo ADD COLUMN changed_by TEXT NOT NULL DEFAULT '';
        ALTER TABLE memo ADD COLUMN change_seq INTEGER NOT NULL DEFAULT 0;
        \(syncTables)
        INSERT INTO sync_identity(store_id) VALUES (\(newStoreID));
        UPDATE memo SET version = json_object((SELECT store_id FROM sync_identity), 1),
                        changed_at = coalesce(update_date, insert_date),
                        changed_by = (SELECT store_id FROM sync_identity), change_seq = id;
        UPDATE sync_identity SET seq = coalesce((SELECT max(id) FROM memo), 0),
                                 clock = coalesce((SELECT max(changed_at) FROM memo), 0);
        """)

    /// The tables and index version 5 adds (also part of `fresh`).
    static let syncTables = """
        CREATE INDEX memo_by_change_seq ON memo(change_seq) WHERE change_seq > 0;
        CREATE TABLE memo_tombstone(
            uuid TEXT PRIMARY KEY,
            version TEXT NOT NULL,
            changed_at INTEGER NOT NULL,
            changed_by TEXT NOT NULL,
            change_seq INTEGER NOT NULL
        ) WITHOUT ROWID;
        CREATE INDEX memo_tombstone_by_change_seq ON memo_tombstone(change_seq);
        CREATE TABLE sync_identity(store_id TEXT NOT NULL, seq INTEGER NOT NULL DEFAULT 0, clock INTEGER NOT NULL DEFAULT 0);
        CREATE TABLE sync_peer(peer_id TEXT PRIMARY KEY, acknowledged_seq INTEGER NOT NULL) WITHOUT ROWID;
        """

    /// A random version-4 uuid, in SQL.
    static let newStoreID = """
        lower(hex(randomblob(4))) || '-' || lower(hex(randomblob(2))) || '-4' || substr(lower(hex(randomblob(2))), 2) || '-'
            || substr('89ab', 1 + abs(random() % 4), 1) || substr(lower(hex(randomblob(2))), 2) || '-' || lower(hex(randomblob(6)))
        """
}
