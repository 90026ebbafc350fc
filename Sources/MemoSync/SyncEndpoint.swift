import MemoStore

/// One side of a sync, as the exchange (`Synchronizer`) talks to it. Every call carries
/// plain data (`SyncRecord`s, cursors, ids, numbers), so a side may be a store in this
/// process (`LocalSyncEndpoint`) or one reached over a pipe.
package protocol SyncEndpoint: AnyObject {
    /// How messages name this side's store.
    var displayPath: String { get }
    /// The store's sync id, its file, and whether it can be written.
    func identity() throws(StoreError) -> SyncIdentityCard
    /// Opens this side's write transaction for a sync made at `time` with the store `peer`
    /// names; the side's id, new when the side is a copy (of `peer`'s store, or another).
    func open(at time: Timestamp, peer: String) throws(StoreError) -> String
    /// How far this side has `peer`'s changes, or nil.
    func cursor(of peer: String) throws(StoreError) -> SyncCursor?
    /// What a peer at `cursor` lacks of this side, with the cursor it reaches by them.
    func changes(since cursor: SyncCursor?, at time: Timestamp) throws(StoreError) -> SyncChanges
    /// This side's records of `uuids`, for those it ever had.
    func records(_ uuids: [String]) throws(StoreError) -> [SyncRecord]
    /// Writes `records` and notes, in the same transaction, that this side has `peer`'s
    /// changes up to `cursor` (its clock past `clock`); uncommitted yet.
    func apply(_ records: [SyncRecord], received cursor: SyncCursor, from peer: String, clock: Int64) throws(StoreError)
    /// Commits what `apply` wrote; its history names the other side as `peer`.
    func commit(peer: String) throws(StoreError)
    /// Discards what is not committed yet; nothing when all is.
    func abandon()
}

/// What a side says of itself before a sync. Made in this module only (`LocalSyncEndpoint`;
/// the remote side's is decoded), so the memberwise initializer serves.
package struct SyncIdentityCard: Equatable, Sendable, Codable {
    package var storeID: String
    /// The store file's machine, device and inode ("" in memory): a store cannot sync with its file.
    package var file: String
    package var isWritable: Bool
}
