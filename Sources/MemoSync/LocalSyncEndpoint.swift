import MemoStore

/// A store in this process as one side of a sync: its public sync operations, nothing else.
package final class LocalSyncEndpoint: SyncEndpoint {
    private let store: MemoStore
    package let displayPath: String
    /// The change number this sync's writes take here, once opened.
    private var seq: Int64 = 0
    /// Whether the sync runs inside a change already open here (a batch) and so leaves its
    /// commit to it.
    private var joinsOpenChange = false

    package init(store: MemoStore, displayPath: String) {
        self.store = store
        self.displayPath = displayPath
    }

    package func identity() throws(StoreError) -> SyncIdentityCard {
        SyncIdentityCard(storeID: try store.syncStoreID(), isWritable: !store.isReadOnly)
    }

    package func open(at time: Timestamp) throws(StoreError) {
        joinsOpenChange = store.isRecordingChange
        seq = try store.beginSync(at: time, joiningOpenChange: joinsOpenChange)
    }

    package func changes(since peer: String) throws(StoreError) -> [SyncRecord] {
        try store.syncRecords(changedSinceSyncWith: peer)
    }

    package func records(_ uuids: [String]) throws(StoreError) -> [SyncRecord] {
        try store.syncRecords(uuids: uuids)
    }

    package func apply(_ records: [SyncRecord], acknowledging peer: String, clock: Int64) throws(StoreError) {
        try store.applySync(records, seq: seq, acknowledging: peer, clock: clock)
    }

    package func commit() throws(StoreError) {
        if !joinsOpenChange { try store.commitSync() }
    }

    package func abandon() {
        if !joinsOpenChange { store.rollbackSync() }
    }
}
