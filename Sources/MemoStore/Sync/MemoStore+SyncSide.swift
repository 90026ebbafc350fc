/// This store's side of a sync (SPEC §4b), as MemoSync's exchange uses it: open one write
/// transaction, read the records a peer lacks, write what the merge decided, note what the
/// peer now has, commit. The exchange needs nothing else of a store, so the two sides of a
/// sync need not share a process.
extension MemoStore {
    /// The random id of this store: what peers remember it by.
    package func syncStoreID() throws(StoreError) -> String {
        try StoreError.wrapping { try SyncIdentity(database: database).storeID() }
    }

    /// Whether this store can only be read: a sync writes to both stores.
    package var isReadOnly: Bool { database.isReadOnly }

    /// Whether a change is being recorded on this connection (a batch is open): a sync then
    /// joins it instead of opening its own transaction.
    package var isRecordingChange: Bool { recorder.kind != nil }

    /// Opens this side of a sync made at `time` and takes its change number; a store that
    /// never synced first gives its memos a first version. Without `joiningOpenChange`, the
    /// sync is a change of its own, open until `commitSync` or `rollbackSync`.
    package func beginSync(at time: Timestamp, joiningOpenChange: Bool) throws(StoreError) -> Int64 {
        if !joiningOpenChange { try recorder.begin(.sync, at: time) }
        return try StoreError.wrapping {
            let identity = SyncIdentity(database: database)
            let neverSynced = try !identity.hasSynced()
            let stamp = try identity.nextStamp(at: time)
            if neverSynced { try table.adoptUnversionedMemos(stamp) }
            return stamp.seq
        }
    }

    /// The memos and tombstones changed since `peer` last synced with this store.
    package func syncRecords(changedSinceSyncWith peer: String) throws(StoreError) -> [SyncRecord] {
        try StoreError.wrapping {
            let seq = try SyncIdentity(database: database).acknowledgedSeq(of: peer)
            var records: [SyncRecord] = []
            // `change_seq > 0` lets SQLite use the partial index memo_by_change_seq.
            let live = try database.prepare("SELECT \(Self.liveColumns) FROM memo WHERE change_seq > ?1 AND change_seq > 0 ORDER BY change_seq")
            try live.bind([.integer(seq)])
            while try live.step() { records.append(try liveRecord(live)) }
            let dead = try database.prepare("SELECT uuid, version, changed_at, changed_by FROM memo_tombstone WHERE change_seq > ?1 ORDER BY change_seq")
            try dead.bind([.integer(seq)])
            while try dead.step() { records.append(Self.tombstone(dead)) }
            return records
        }
    }

    /// This store's state of each memo in `uuids` it ever had (live or a tombstone).
    package func syncRecords(uuids: [String]) throws(StoreError) -> [SyncRecord] {
        try StoreError.wrapping {
            let live = try database.cached("SELECT \(Self.liveColumns) FROM memo WHERE uuid = ?1")
            let dead = try database.cached("SELECT uuid, version, changed_at, changed_by FROM memo_tombstone WHERE uuid = ?1")
            return try uuids.compactMap { uuid in
                try live.firstRow([.text(uuid)], liveRecord) ?? dead.firstRow([.text(uuid)], Self.tombstone)
            }
        }
    }

    /// Writes what the merge decided, as change `seq`, and notes that `peer` has every change
    /// of this store, with the clock moved past `clock`, the latest change seen.
    package func applySync(_ records: [SyncRecord], seq: Int64, acknowledging peer: String, clock: Int64) throws(StoreError) {
        try StoreError.wrapping {
            for record in records { try table.write(record, seq: seq) }
            try SyncIdentity(database: database).acknowledge(peer, clock: clock)
        }
    }

    /// Commits the sync's own change, recorded in the history as a `sync`.
    package func commitSync() throws(StoreError) {
        try recorder.commit()
    }

    /// Discards the sync's own change, if it is still open.
    package func rollbackSync() {
        guard recorder.kind == .sync, recorder.isOpen else { return }
        try? recorder.rollback()
    }

    private static let liveColumns = "uuid, content, insert_date, update_date, version, changed_at, changed_by, id"

    private func liveRecord(_ row: Statement) throws -> SyncRecord {
        SyncRecord(uuid: row.string(at: 0),
                   live: SyncRecord.Live(content: row.string(at: 1), insertDate: row.int64(at: 2),
                                         updateDate: row.isNull(at: 3) ? nil : row.int64(at: 3), tags: try syncTags(of: row.int64(at: 7))),
                   version: VersionVector(json: row.string(at: 4)), changedAt: row.int64(at: 5), changedBy: row.string(at: 6))
    }

    /// Memo `id`'s tags by name. A row another program wrote with a name that is not text
    /// or a flag that is not a number is left out, so the rest still count.
    private func syncTags(of id: Int64) throws -> [SyncRecord.Tag] {
        let rows = try database.cached("SELECT name, inline FROM memo_tag WHERE memo_id = ?1 ORDER BY name")
        try rows.bind([.integer(id)])
        var tags: [SyncRecord.Tag] = []
        while try rows.step() {
            guard rows.isText(at: 0), rows.isNumber(at: 1) else { continue }
            tags.append(SyncRecord.Tag(name: rows.string(at: 0), inline: rows.int64(at: 1) != 0))
        }
        return tags
    }

    private static func tombstone(_ row: Statement) -> SyncRecord {
        SyncRecord(uuid: row.string(at: 0), live: nil, version: VersionVector(json: row.string(at: 1)),
                   changedAt: row.int64(at: 2), changedBy: row.string(at: 3))
    }
}
