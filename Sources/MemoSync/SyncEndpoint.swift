import MemoStore

/// One side of a sync, as the exchange (`Synchronizer`) talks to it. Every call carries
/// plain data (`SyncRecord`s, ids, numbers), so a side may be a store in this process
/// (`LocalSyncEndpoint`) or one reached over a pipe.
package protocol SyncEndpoint: AnyObject {
    /// How messages name this side's store.
    var displayPath: String { get }
    /// The store's sync id, and whether it can be written.
    func identity() throws(StoreError) -> SyncIdentityCard
    /// Opens this side's write transaction for a sync made at `time`.
    func open(at time: Timestamp) throws(StoreError)
    /// The records changed since `peer` last synced with this side.
    func changes(since peer: String) throws(StoreError) -> [SyncRecord]
    /// This side's records of `uuids`, for those it ever had.
    func records(_ uuids: [String]) throws(StoreError) -> [SyncRecord]
    /// Writes `records` and notes that `peer` has every change of this side (its clock past
    /// `clock`), uncommitted yet.
    func apply(_ records: [SyncRecord], acknowledging peer: String, clock: Int64) throws(StoreError)
    /// Commits what `apply` wrote.
    func commit() throws(StoreError)
    /// Discards what is not committed yet; nothing when all is.
    func abandon()
}

/// What a side says of itself before a sync.
package struct SyncIdentityCard: Equatable, Sendable, Codable {
    package var storeID: String
    package var isWritable: Bool

    package init(storeID: String, isWritable: Bool) {
        self.storeID = storeID
        self.isWritable = isWritable
    }
}
