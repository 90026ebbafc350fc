import MemoStore

/// What the client of a sync over a pipe asks (`RemoteSyncEndpoint`), one request a line,
/// each a call of `SyncEndpoint`: `{"open":{"time":…,"peer":"…"}}`. `apply` is followed
/// by `count` lines, each one `SyncRecord`.
package enum SyncRequest: Equatable, Codable {
    case identity
    case open(time: Int64, peer: String)
    case cursor(peer: String)
    case changes(since: SyncCursor?, time: Int64)
    case records(uuids: [String])
    case apply(count: Int, received: SyncCursor, from: String, clock: Int64)
    case commit
    case abandon
}

/// What `memo sync --serve` answers, one reply a request. `changes` and `records` are
/// followed by `count` lines, each one `SyncRecord`.
package enum SyncReply: Equatable, Codable {
    case identity(card: SyncIdentityCard)
    case opened(storeID: String)
    case cursor(cursor: SyncCursor?)
    case changes(storeID: String, cursor: SyncCursor, cursorAfterWrites: SyncCursor, seq: Int64, count: Int)
    case records(count: Int)
    case done
    /// The request failed: the error's message, and whether it is about the store itself
    /// (exit status 3 on the client too).
    case failed(message: String, storeUnusable: Bool)
}
