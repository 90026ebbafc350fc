extension Schema {
    /// Sync (docs/REFERENCE.md, Sync). Each memo carries a version vector (`version`: for each
    /// store that changed it, how many changes it made, so two versions can be told newer, older or
    /// concurrent), the hybrid-logical time and store of its last change (`changed_at`,
    /// `changed_by`: which concurrent change is later) and `change_seq`, this store's
    /// counter at that change, so a sync reads only what changed since the last one with a
    /// peer (indexed only once set, so a store that never synced pays nothing for it). Deleted memos leave a tombstone with the same facts, so a delete travels and an
    /// old copy elsewhere cannot bring the memo back. `sync_identity` holds this store's
    /// random id and its counters; `sync_peer` how far each peer has this store's changes.
    /// Existing memos get a first version of this store, so two stores that were never
    /// synced treat the same uuid as concurrent changes.
    static let version5 = Migration(
        version: 5,
        sql: """
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

    /// The tables and index version 5 adds.
    static let syncTables = """
        \(changeIndexAndTombstoneColumns)
        ) WITHOUT ROWID;
        CREATE INDEX memo_tombstone_by_change_seq ON memo_tombstone(change_seq);
        CREATE TABLE sync_identity(store_id TEXT NOT NULL, seq INTEGER NOT NULL DEFAULT 0, clock INTEGER NOT NULL DEFAULT 0);
        CREATE TABLE sync_peer(peer_id TEXT PRIMARY KEY, acknowledged_seq INTEGER NOT NULL) WITHOUT ROWID;
        """

    /// The index of changes and the tombstone table up to its last column, as version 5
    /// created them: a new store's layout (`Schema.fresh`) goes on with later columns.
    static let changeIndexAndTombstoneColumns = """
        CREATE INDEX memo_by_change_seq ON memo(change_seq) WHERE change_seq > 0;
        CREATE TABLE memo_tombstone(
            uuid TEXT PRIMARY KEY,
            version TEXT NOT NULL,
            changed_at INTEGER NOT NULL,
            changed_by TEXT NOT NULL,
            change_seq INTEGER NOT NULL
        """

    /// A random version-4 uuid, in SQL.
    static let newStoreID = """
        lower(hex(randomblob(4))) || '-' || lower(hex(randomblob(2))) || '-4' || substr(lower(hex(randomblob(2))), 2) || '-'
            || substr('89ab', 1 + abs(random() % 4), 1) || substr(lower(hex(randomblob(2))), 2) || '-' || lower(hex(randomblob(6)))
        """
}
