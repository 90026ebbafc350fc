/// What `undo --sync` would do, said before it is done (and asked about on a terminal).
package struct SyncUndoPreview: Equatable, Sendable {
    /// The sync it would undo.
    package var sync: HistoryEntry
    /// Memos the sync changed or deleted here, which the undo puts back as they were.
    package var putBack: Int
    /// Memos the sync added here (brought from the peer, or `@conflict` copies), which stay.
    package var kept: Int
}
