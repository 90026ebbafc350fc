import FoundationEssentials

/// This store's id, a change number and a hybrid-logical time: what a change leaves on memos.
struct SyncStamp {
    let store: String
    let seq: Int64
    let clock: Int64
}

/// The store's sync identity and counters (`sync_identity`), how far it has each peer's
/// changes (`sync_received`), and the points of its history peers were given
/// (`sync_checkpoint`). Once the store keeps versions (after its first sync or import),
/// every local change stamps the memos it touched; before, memos carry none, and the first
/// sync gives every memo without one a first version of this store
/// (`SyncStamping.adoptUnversionedMemos`).
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

    /// `nextStamp` for a local change, or nil while the store keeps no versions; a copied or
    /// restored store file first becomes a store of its own.
    func localChangeStamp(at wallClock: Timestamp, file: StoreFile?) throws -> SyncStamp? {
        guard try isVersioned() else { return nil }
        try becomeOwnStoreIfCopied(file: file)
        return try nextStamp(at: wallClock)
    }

    private static let versionedSQL = FixedSQL("SELECT versioned FROM sync_identity")

    /// Whether local changes stamp versions: the store synced or imported.
    func isVersioned() throws -> Bool {
        try database.cached(Self.versionedSQL).scalarInt([]) == 1
    }

    /// Makes local changes stamp versions from now on (an import: its memos' versions must
    /// move with every later change). The memos from before keep none until the first sync.
    ///
    /// Read first: an import asks once a memo, and in a long transaction SQLite's UPDATE
    /// costs 30 times the read even when it changes nothing (most of an import's time).
    func becomeVersioned() throws {
        guard try !isVersioned() else { return }
        try database.cached("UPDATE sync_identity SET versioned = 1").run()
    }

    /// Before the store's first sync: its memos without a version take a first one.
    func adoptUnversionedMemos(at time: Timestamp, stamping: SyncStamping) throws {
        guard try database.cached("SELECT adopted FROM sync_identity").scalarInt([]) == 0 else { return }
        try stamping.adoptUnversionedMemos(try nextStamp(at: time))
        try database.cached("UPDATE sync_identity SET versioned = 1, adopted = 1").run()
    }

    // MARK: Copies

    /// Before a local change: a store that keeps no versions in a file that held a store that
    /// did (the file carries its mark) was put back from a backup made before its first sync.
    /// Its memos take their first version now, named by their state as the backup has them,
    /// before the change touches them; the change is then stamped, as a store of its own.
    func adoptIfPutBack(file: StoreFile?, stamping: SyncStamping, at time: Timestamp) throws {
        guard let file, try !isVersioned(), file.history() != nil else { return }
        try adoptUnversionedMemos(at: time, stamping: stamping)
    }

    /// Gives a store made from the empty store's image (`EmptyStoreImage`, which holds no
    /// id of its own) a new random id, and notes which file it stands for: what creating a
    /// store writes in `sync_identity`.
    func beginNewStore(file: String) throws {
        try database.cached("UPDATE sync_identity SET store_id = ?1, file_id = ?2")
            .run([.text(UUIDText.random().canonical), .text(file)])
    }

    /// Notes which file holds the store.
    func noteFile(_ file: String) throws {
        try database.cached("UPDATE sync_identity SET file_id = ?1").run([.text(file)])
    }

    /// Makes the store one of its own when its file is a copy (another file than the one it
    /// noted) or went back in time (a backup put back: the file names a later change of this
    /// store than it holds), so changes made from here on cannot be mistaken for those of
    /// the store it was copied from, or for the ones the backup lost.
    func becomeOwnStoreIfCopied(file: StoreFile?) throws {
        guard let file else { return }
        let current = file.identity
        let noted = try database.cached("SELECT file_id FROM sync_identity").firstRow([]) { $0.string(at: 0) } ?? ""
        guard !current.isEmpty else { return }
        if noted != current {
            if !noted.isEmpty { try renew() }
            try noteFile(current)
        } else if let history = file.history(), try history.store != storeID() || history.seq > seq() {
            // The file saved a later change, or one of an identity this store took after the
            // backup was made.
            try renew()
        }
    }

    /// Notes on the file the latest change it holds, after a change was saved.
    func noteHistory(on file: StoreFile?) throws {
        guard let file else { return }
        file.noteHistory(store: try storeID(), seq: try seq())
    }

    private func seq() throws -> Int64 {
        try database.cached("SELECT seq FROM sync_identity").scalarInt([]) ?? 0
    }

    /// Takes a new random id: changes made from here on are this store's own, apart from any
    /// store that shares the old id's history. Checkpoints given under the old id are void.
    func renew() throws {
        try database.cached("UPDATE sync_identity SET store_id = ?1").run([.text(UUIDText.random().canonical)])
        try database.cached("DELETE FROM sync_checkpoint").run()
    }

    // MARK: Cursors

    /// How far this store has `peer`'s changes, or nil: never synced (or a copy of it).
    func received(from peer: String) throws -> SyncCursor? {
        try database.cached("SELECT seq, checkpoint FROM sync_received WHERE peer_id = ?1")
            .firstRow([.text(peer)]) { SyncCursor(seq: $0.int64(at: 0), checkpoint: $0.string(at: 1)) }
    }

    /// Notes, with the changes received, that this store now has `peer`'s changes up to
    /// `cursor`, and moves the clock past the latest change seen, so a change made here next
    /// is later than all of them.
    func noteReceived(from peer: String, upTo cursor: SyncCursor, clock: Int64) throws {
        try observe(clock: clock)
        try database.cached("INSERT OR REPLACE INTO sync_received(peer_id, seq, checkpoint) VALUES (?1, ?2, ?3)")
            .run([.text(peer), .integer(cursor.seq), .text(cursor.checkpoint)])
    }

    /// Moves the clock past a change this store now holds (received, or imported with its
    /// version), so a change made here next is later than it.
    func observe(clock: Int64) throws {
        try database.cached("UPDATE sync_identity SET clock = max(clock, ?1)").run([.integer(clock)])
    }

    /// Whether `cursor` names a point of this store's history.
    func holds(_ cursor: SyncCursor) throws -> Bool {
        try database.cached("SELECT seq FROM sync_checkpoint WHERE token = ?1").scalarInt([.text(cursor.checkpoint)])
            == cursor.seq
    }

    /// A new checkpoint at this store's latest change.
    func checkpoint() throws -> SyncCursor {
        let seq = try seq()
        let cursor = SyncCursor(seq: seq, checkpoint: UUIDText.random().canonical)
        try database.cached("INSERT INTO sync_checkpoint(token, seq) VALUES (?1, ?2)").run([
            .text(cursor.checkpoint), .integer(seq)
        ])
        return cursor
    }
}
