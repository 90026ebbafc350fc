import MemoStore

/// The reads the server's live features make between commands (references, watches,
/// completion), so that no face reaches past the notebook into its store.
extension Notebook {
    /// Where the store is: the server keeps each store's memo files apart by it.
    package var storeLocation: StoreLocation { store.location }

    /// The memo with `id`, or nil when there is none.
    package func memo(id: Int64) throws(StoreError) -> Memo? {
        try store.memo(id: id)
    }

    /// The memo with `uuid` (lower-case), or nil when there is none.
    package func memo(uuid: String) throws(StoreError) -> Memo? {
        try store.memo(uuid: uuid)
    }

    /// The memos a fetch request selects, streamed.
    package func memos(_ query: MemoQuery) throws(StoreError) -> MemoCursor {
        try store.memos(query)
    }

    /// Memos whose id starts with `idPrefix`, newest first: the REPL's id completion.
    package func summaries(idPrefix: String, limit: Int) throws(StoreError) -> [MemoStore.Summary] {
        try store.summaries(idPrefix: idPrefix, limit: limit)
    }

    /// What memo `id`'s text references and the memos referencing it (docs/REFERENCE.md, Links).
    package func links(of id: Int64) throws(StoreError) -> MemoStore.Links {
        try store.links(of: id)
    }

    /// Every place a memo's text references memo `id`.
    package func linkPlaces(to id: Int64) throws(StoreError) -> [MemoStore.LinkPlace] {
        try store.linkPlaces(to: id)
    }

    /// How many other memos reference memo `id`.
    package func referrerCount(of id: Int64) throws(StoreError) -> Int {
        try store.referrerCount(of: id)
    }

    /// Changes whenever the store does, in this process or another: a watch compares it.
    package func changeStamp() throws(StoreError) -> [Int64] {
        try store.changeStamp()
    }
}
