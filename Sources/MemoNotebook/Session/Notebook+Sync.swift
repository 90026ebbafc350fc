import MemoStore
import MemoSync

extension Notebook {
    /// `sync PATH`: opens (or creates) the store at PATH, merges both ways at this command's
    /// time, and closes it.
    func sync(with path: String) throws -> Outcome {
        let other = try MemoStore.open(.file(path: UserPath.expand(path)))
        let summary = try Synchronizer.sync(LocalSyncEndpoint(store: store, displayPath: store.location.displayPath),
                                            with: LocalSyncEndpoint(store: other, displayPath: path), at: changeTime)
        return .synced(summary, path: path)
    }
}
