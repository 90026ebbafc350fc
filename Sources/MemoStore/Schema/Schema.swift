/// The store's schema history. Each migration is frozen once shipped (`SchemaTests` pins its
/// SQL): fix forward with a new one. Versions live in `PRAGMA user_version`.
enum Schema {
    /// Marks version 2 and later stores as memo's own (`PRAGMA application_id`, "MEMO").
    static let applicationID: Int64 = 0x4D45_4D4F

    static let migrations: [Migration] = [version1, version2, version3, version4, version5, version6, version7, version8]

    static let currentVersion = migrations.count

    /// The layout the migrations end in, created in one step for a new store: replaying
    /// them builds and drops a whole full-text index, most of the start-up of
    /// `memo --in-memory`. Versions 6 and 7 only alter tables, so they run as they are; version 8 only fills the index again. `SchemaTests` checks it matches the migrated layout exactly.
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
        \(version6.sql)
        \(version7.sql)
        PRAGMA application_id = \(applicationID);
        PRAGMA user_version = \(currentVersion);
        """
}
