import MemoStore

/// A store in this process as one side of a sync: its public sync operations, nothing else.
package final class LocalSyncEndpoint: SyncEndpoint {
    private let store: MemoStore
    package let displayPath: String
    /// The change number this sync's writes take here, once its changes were read.
    private var seq: Int64 = 0

    package init(store: MemoStore, displayPath: String) {
        self.store = store
        self.displayPath = displayPath
    }

    /// The store file opening it created, or nil.
    package var createdFile: CreatedStoreFile? { store.createdFile }

    package func identity() throws(StoreError) -> SyncIdentityCard {
        let file = store.fileIdentity
        return SyncIdentityCard(
            storeID: try store.syncStoreID(), file: file.isEmpty ? "" : MachineIdentity.current + ":" + file,
            isWritable: !store.isReadOnly)
    }

    package func open(at time: Timestamp, peer: String) throws(StoreError) -> String {
        try store.beginSync(at: time, peer: peer)
    }

    package func cursor(of peer: String) throws(StoreError) -> SyncCursor? {
        try store.syncCursor(of: peer)
    }

    package func changes(since cursor: SyncCursor?, at time: Timestamp) throws(StoreError) -> SyncChanges {
        let changes = try store.syncChanges(since: cursor, at: time)
        seq = changes.seq
        return changes
    }

    package func records(_ uuids: [String]) throws(StoreError) -> [SyncRecord] {
        try store.syncRecords(uuids: uuids)
    }

    package func apply(
        _ records: [SyncRecord], received cursor: SyncCursor, from peer: String, clock: Int64
    ) throws(StoreError) {
        try store.applySync(records, seq: seq, received: cursor, from: peer, clock: clock)
    }

    package func commit(peer: String) throws(StoreError) {
        try store.commitSync(peer: peer)
    }

    package func abandon() {
        store.rollbackSync()
    }
}
