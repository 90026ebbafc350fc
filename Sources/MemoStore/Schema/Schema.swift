/// The store's schema history. Each migration is frozen once shipped (`SchemaTests` pins its
/// SQL): fix forward with a new one. Versions live in `PRAGMA user_version`.
enum Schema {
    /// Marks version 2 and later stores as memo's own (`PRAGMA application_id`, "MEMO").
    static let applicationID: Int64 = 0x4D45_4D4F

    static let migrations: [Migration] = [
        version1, version2, version3, version4, version5, version6, version7, version8, version9, version10, version11,
        version12, version13
    ]

    static let currentVersion = migrations.count

    /// The layout the migrations end in, created in one step for a new store, as SQLite
    /// stores it after them: replaying them builds and drops a whole full-text index, and
    /// each `ALTER TABLE` makes SQLite parse the whole schema again, which was most of the
    /// start-up of `memo --in-memory`. `SchemaTests` checks it matches the migrated layout.
    static let fresh = """
        CREATE TABLE memo(
            id INTEGER PRIMARY KEY AUTOINCREMENT,
            uuid TEXT NOT NULL UNIQUE,
            content TEXT NOT NULL,
            insert_date INTEGER NOT NULL,
            update_date INTEGER
        , version TEXT NOT NULL DEFAULT '{}', changed_at INTEGER NOT NULL DEFAULT 0, changed_by TEXT NOT NULL DEFAULT '', \
        change_seq INTEGER NOT NULL DEFAULT 0, tags_version TEXT NOT NULL DEFAULT '{}', text_by TEXT NOT NULL DEFAULT '', \
        text_seq INTEGER NOT NULL DEFAULT 0, support TEXT, tag_names TEXT NOT NULL DEFAULT '', \
        word_count INTEGER NOT NULL DEFAULT 0, state_named INTEGER NOT NULL DEFAULT 0, \
        linked INTEGER NOT NULL DEFAULT 0);
        CREATE INDEX memo_by_insert_date ON memo(insert_date, id, word_count);
        CREATE TABLE memo_tag(
            memo_id INTEGER NOT NULL REFERENCES memo(id) ON DELETE CASCADE,
            name TEXT NOT NULL,
            inline INTEGER NOT NULL DEFAULT 0, added_by TEXT NOT NULL DEFAULT '', added_seq INTEGER NOT NULL DEFAULT 0,
            PRIMARY KEY (memo_id, name)
        ) WITHOUT ROWID;
        CREATE INDEX memo_tag_by_name ON memo_tag(name, memo_id);
        CREATE VIRTUAL TABLE memo_search USING fts5(text, tokenize = 'unicode61 remove_diacritics 2');
        \(version4.sql)
        \(changeIndexAndTombstoneColumns)
        , tags TEXT NOT NULL DEFAULT '[]', text TEXT) WITHOUT ROWID;
        CREATE INDEX memo_tombstone_by_change_seq ON memo_tombstone(change_seq);
        CREATE TABLE sync_identity(store_id TEXT NOT NULL, seq INTEGER NOT NULL DEFAULT 0, clock INTEGER NOT NULL DEFAULT 0, \
        versioned INTEGER NOT NULL DEFAULT 0, adopted INTEGER NOT NULL DEFAULT 0, file_id TEXT NOT NULL DEFAULT '');
        INSERT INTO sync_identity(store_id) VALUES (\(newStoreID));
        CREATE TABLE sync_received(peer_id TEXT PRIMARY KEY, seq INTEGER NOT NULL, checkpoint TEXT NOT NULL) WITHOUT ROWID;
        CREATE TABLE sync_checkpoint(token TEXT PRIMARY KEY, seq INTEGER NOT NULL) WITHOUT ROWID;
        \(version10.sql)
        PRAGMA application_id = \(applicationID);
        PRAGMA user_version = \(currentVersion);
        """
}
