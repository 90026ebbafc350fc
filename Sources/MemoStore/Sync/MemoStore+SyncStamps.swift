/// The sync facts every local change leaves on the memos it touched (schema version 5):
/// each one's version vector counts one more change by this store, and carries this
/// store's next change number and hybrid-logical time; a memo the change deleted leaves a
/// tombstone with the same. Done once per change, for all its memos, in SQL.
///
/// A store that never synced keeps no versions (a change costs one read of its identity);
/// its first sync gives every memo a first version of this store (`adoptUnversionedMemos`).
/// Deletes always leave tombstones, so a memo deleted before the first sync stays deleted.
/// This store's id, a change number and a hybrid-logical time: what a change leaves on memos.
struct SyncStamp {
    let store: String
    let seq: Int64
    let clock: Int64
}

extension MemoStore {
    /// This store's id, and the next change number and time for a change made at `wallClock`.
    func nextSyncStamp(at wallClock: Timestamp) throws -> SyncStamp {
        try database.cached("UPDATE sync_identity SET seq = seq + 1, clock = max(clock + 1, ?1)")
            .run([.integer(wallClock.millisecondsSince1970)])
        return try database.cached("SELECT store_id, seq, clock FROM sync_identity")
            .firstRow([]) { SyncStamp(store: $0.string(at: 0), seq: $0.int64(at: 1), clock: $0.int64(at: 2)) } ?? SyncStamp(store: "", seq: 0, clock: 0)
    }

    /// `nextSyncStamp` for a local change, or nil while the store has never synced.
    func localChangeStamp(at wallClock: Timestamp) throws -> SyncStamp? {
        try hasSynced() ? try nextSyncStamp(at: wallClock) : nil
    }

    /// Whether this store has synced with a peer at least once.
    private func hasSynced() throws -> Bool {
        try database.cached("SELECT EXISTS (SELECT 1 FROM sync_peer)").scalarInt([]) == 1
    }

    /// Before a store's first sync: the memos changed while it had never synced take a first
    /// version of this store, dated by their own dates, as change number `stamp.seq`. (Once
    /// a store has synced, every change stamps its memos, so later syncs skip this scan.)
    func adoptUnversionedMemos(_ stamp: SyncStamp) throws {
        guard try !hasSynced() else { return }
        try database.cached("""
            UPDATE memo SET version = json_set(version, \(Self.ownCount), coalesce(json_extract(version, \(Self.ownCount)), 0) + 1),
                            changed_at = coalesce(update_date, insert_date), changed_by = ?1, change_seq = ?2
            WHERE change_seq = 0
            """).run([.text(stamp.store), .integer(stamp.seq)])
    }

    /// Stamps the memos staged in `pending_change` as changed here, now, by a change of
    /// `kind`. A memo's version before the change is the base (a memo brought back to life
    /// takes its tombstone's), so the new version is newer than every one the memo had.
    /// Images and tombstones are only looked at for kinds that can delete or bring back a
    /// memo: an add or an edit costs three small statements.
    func stampLocalChange(_ kind: ChangeKind, _ stamp: SyncStamp?, at time: Timestamp) throws {
        // An add, edit or tag neither deletes nor brings back a memo.
        let keepsMemosAlive = [.add, .edit, .tag, .untag].contains(kind)
        guard let stamp else {
            // Never synced: no versions, but a deleted memo leaves its tombstone.
            guard !keepsMemosAlive else { return }
            try database.cached(Self.reviveSQL).run()
            return try database.cached(Self.buryDeletedSQL).run([.text(storeID()), .integer(0), .integer(time.millisecondsSince1970)])
        }
        let values: [SQLiteValue] = [.text(stamp.store), .integer(stamp.seq), .integer(stamp.clock)]
        // Such a change leaves a memo's sync facts as they were: its own version is the base.
        guard !keepsMemosAlive else { return try database.cached(Self.stampInPlaceSQL).run(values) }
        try database.cached(Self.stampSQL).run(values)
        try database.cached(Self.reviveSQL).run()
        try database.cached(Self.buryDeletedSQL).run(values)
    }

    /// `?1`'s count in a version vector, as a JSON path.
    static let ownCount = "'$.\"' || ?1 || '\"'"

    /// The version a memo had before the change: its image's, else its tombstone's, else its own.
    private static let baseVersion = """
        coalesce((SELECT json_extract(p.before, '$.version') FROM temp.pending_change p WHERE p.memo_id = memo.id),
                 (SELECT t.version FROM memo_tombstone t WHERE t.uuid = memo.uuid), version)
        """

    /// Memos that existed before the change, or come back to life (their tombstone is the
    /// base). Each statement looks memos up by id from the staging table: a join would scan
    /// them all.
    private static let stampSQL = """
        UPDATE memo SET version = json_set(\(baseVersion), \(ownCount), coalesce(json_extract(\(baseVersion), \(ownCount)), 0) + 1),
                        changed_at = ?3, changed_by = ?1, change_seq = ?2
        WHERE id IN (SELECT p.memo_id FROM temp.pending_change p
                     WHERE p.before IS NOT NULL
                        OR EXISTS (SELECT 1 FROM memo m JOIN memo_tombstone t ON t.uuid = m.uuid WHERE m.id = p.memo_id))
        """

    /// Memos that existed before the change (new ones were stamped as they were inserted).
    private static let stampInPlaceSQL = """
        UPDATE memo SET version = json_set(version, \(ownCount), coalesce(json_extract(version, \(ownCount)), 0) + 1),
                        changed_at = ?3, changed_by = ?1, change_seq = ?2
        WHERE id IN (SELECT memo_id FROM temp.pending_change WHERE before IS NOT NULL)
        """

    /// A memo alive again (an undone delete) has no tombstone.
    private static let reviveSQL = """
        DELETE FROM memo_tombstone WHERE uuid IN (SELECT uuid FROM memo WHERE id IN (SELECT memo_id FROM temp.pending_change))
        """

    /// A memo the change deleted leaves a tombstone one change newer than its last version.
    private static let buryDeletedSQL = """
        INSERT OR REPLACE INTO memo_tombstone(uuid, version, changed_at, changed_by, change_seq)
        SELECT json_extract(p.before, '$.uuid'),
               json_set(coalesce(json_extract(p.before, '$.version'), '{}'), \(ownCount),
                        coalesce(json_extract(p.before, '$.version.' || '"' || ?1 || '"'), 0) + 1),
               ?3, ?1, ?2
        FROM temp.pending_change p
        WHERE p.before IS NOT NULL AND p.memo_id NOT IN (SELECT id FROM memo)
        """
}
