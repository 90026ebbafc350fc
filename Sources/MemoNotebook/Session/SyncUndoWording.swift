import MemoStore

/// What `undo --sync` says it will do (the question on a terminal) and did: what it puts back
/// here, what it keeps, and what the next sync with the same store then does.
enum SyncUndoWording {
    static func question(_ undo: SyncUndoPreview) -> String {
        "undo \(undo.sync.label)? It puts back \(memos(undo.putBack)) as before the sync and keeps \(memos(undo.kept)) it added; "
            + nextSync(undo) + " [y/N] "
    }

    static func report(_ undo: SyncUndoPreview) -> String {
        "undid \(undo.sync.label): \(memos(undo.putBack)) put back as before the sync, \(memos(undo.kept)) it added kept\n"
            + nextSync(undo)
    }

    /// The undo is concurrent with the peer's versions, so the peer loses nothing: its texts
    /// come back as @conflict copies, and what was put back here goes there.
    private static func nextSync(_ undo: SyncUndoPreview) -> String {
        let peer = undo.sync.peer ?? "the store it synced with"
        return "the next sync with \(peer) keeps both sides: a text the sync had brought here comes back as a @conflict copy"
    }

    private static func memos(_ count: Int) -> String {
        count == 1 ? "1 memo" : "\(count) memos"
    }
}
