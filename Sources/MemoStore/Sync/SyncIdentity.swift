/// This store's id, a change number and a hybrid-logical time: what a change leaves on memos.
struct SyncStamp {
    let store: String
    let seq: Int64
    let clock: Int64
}

/// The store's sync identity and counters (`sync_identity`) and how far each peer has this
/// store's changes (`sync_peer`). Every local change stamps the memos it touched once the
/// store has synced; a store that never synced keeps no versions, and its first sync gives
/// every memo a first version of this store (`MemoTable.adoptUnversionedMemos`).
struct SyncIdentity {
    let database: Database

    func storeID() throws -> String {
        try database.cached("SELECT store_id FROM sync_identity").firstRow([]) { $0.string(at: 0) } ?? ""
    }

    /// This store's id, and the next change number and time for a change made at `wallClock`.
    func nextStamp(at wallClock: Timestamp) throws -> SyncStamp {
        try database.cached("UPDATE sync_identity SET seq = seq + 1, clock = max(clock + 1, ?1)")
            .run([.integer(wallClock.millisecondsSince1970)])
        return try database.cached("SELECT store_id, seq, clock FROM sync_identity")
            .firstRow([]) { SyncStamp(store: $0.string(at: 0), seq: $0.int64(at: 1), clock: $0.int64(at: 2)) }
            ?? SyncStamp(store: "", seq: 0, clock: 0)
    }

    /// `nextStamp` for a local change, or nil while the store has never synced.
    func localChangeStamp(at wallClock: Timestamp) throws -> SyncStamp? {
        try hasSynced() ? try nextStamp(at: wallClock) : nil
    }

    /// Whether this store has synced with a peer at least once.
    func hasSynced() throws -> Bool {
        try database.cached("SELECT EXISTS (SELECT 1 FROM sync_peer)").scalarInt([]) == 1
    }

    /// The last change number of this store that `peer` has, or -1.
    func acknowledgedSeq(of peer: String) throws -> Int64 {
        try database.cached("SELECT acknowledged_seq FROM sync_peer WHERE peer_id = ?1").scalarInt([.text(peer)]) ?? -1
    }

    /// Notes that `peer` now has every change of this store, and moves the clock past the
    /// latest change seen, so a change made here next is later than all of them.
    func acknowledge(_ peer: String, clock: Int64) throws {
        try database.cached("UPDATE sync_identity SET clock = max(clock, ?1)").run([.integer(clock)])
        try database.cached("INSERT OR REPLACE INTO sync_peer(peer_id, acknowledged_seq) SELECT ?1, seq FROM sync_identity")
            .run([.text(peer)])
    }
}
