/// Which change an `undo` or `redo` takes. The store picks it inside the write transaction of
/// the undo, so no change another process saves can come between the choice and the undo.
package enum HistoryChoice: Equatable, Sendable {
    /// The store's most recent change that can be undone (or redone), whoever made it: what a
    /// one-shot command takes.
    case latest
    /// The newest of these entries (oldest first: a session's own changes) that can be undone
    /// (or redone); one another process undid (or redid) meanwhile is passed over.
    case newest(of: [Int64])
    /// The store's most recent sync that is not undone: `undo --sync`. A plain undo never
    /// takes a sync back (`StoreRefusal.undoOfSync`).
    case latestSync
}
