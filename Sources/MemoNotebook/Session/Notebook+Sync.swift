import MemoStore

extension Notebook {
    /// `sync PATH`: opens (or creates) the store at PATH, merges both ways, and closes it.
    /// The other store's history takes this session's clock, as this one's does.
    func sync(with path: String) throws -> Outcome {
        let other = try MemoStore.open(.file(path: UserPath.expand(path)))
        other.changeTime = store.changeTime
        return .synced(try store.sync(with: other, path: path), path: path)
    }
}
