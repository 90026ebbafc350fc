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

    /// What `handle` names here: no memo, one (by its uuid), or several.
    package func match(_ handle: MemoHandle) throws(StoreError) -> MemoStore.HandleMatch {
        try store.match(handle)
    }

    /// The memo `handle` names, or nil when it names none or several.
    package func memo(handle: MemoHandle) throws(StoreError) -> Memo? {
        guard let uuid = try store.match(handle).uuid else { return nil }
        return try store.memo(uuid: uuid)
    }

    /// Up to `limit` memos (id and uuid) whose uuid starts with `digits` (hexadecimal, no
    /// dashes; all memos for none), newest first.
    package func memos(uuidStartingWith digits: String, limit: Int) throws(StoreError) -> [(id: Int64, uuid: String)] {
        try store.memos(uuidStartingWith: digits, limit: limit)
    }

    /// The shortest handle that names the memo with `uuid` alone in this store: what a
    /// document outside the store writes to mean that memo on every machine.
    package func handle(ofUUID uuid: String) throws(StoreError) -> MemoHandle {
        try store.handle(ofUUID: uuid)
    }

    /// `memo`'s text as a person here reads it: each `#ID` link as its memo's id here, a
    /// link to a memo not here as its handle (`ReadableText`). Texts are shown so
    /// wherever they are rendered; the store keeps what was written.
    package func readableText(of memo: Memo) throws(StoreError) -> String {
        try store.readableText(of: memo)
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
