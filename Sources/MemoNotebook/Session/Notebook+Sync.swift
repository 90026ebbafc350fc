import MemoStore
import MemoSync

extension Notebook {
    /// `sync PATH`: opens (or creates) the store at PATH, merges both ways at this command's
    /// time, and closes it. Not inside a batch (`StoreRefusal.syncInBatch`), nor once this
    /// session gave memos the deterministic uuids of in-memory runs, which a store file must
    /// never get (two scripts' `add` would be one memo): refused before the peer is opened,
    /// so nothing is created there.
    func sync(with path: String) throws -> Outcome {
        if store.hasOpenTransaction { throw StoreError.refused(.syncInBatch) }
        if uuids.gaveReproducibleUUIDs { throw StoreError.refused(.syncOfReproducibleUUIDs) }
        let peerPath = UserPath.expand(path)
        // Before opening: opening creates missing folders, and SQLite its -wal beside the file.
        if store.isOwnFile(peerPath) { throw StoreError.refused(.syncWithItself(path: path)) }
        let other = try MemoStore.open(.file(path: peerPath))
        let summary = try Synchronizer.sync(LocalSyncEndpoint(store: store, displayPath: store.location.displayPath),
                                            with: LocalSyncEndpoint(store: other, displayPath: path), at: changeTime)
        return .synced(summary, path: path)
    }
}
