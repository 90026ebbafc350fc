import MemoStore

/// What `undo --sync` says it will do (the question on a terminal) and did: what it puts back
/// here, what it keeps, and what the next sync with the same store then does.
enum SyncUndoWording {
    static func question(_ undo: SyncUndoPreview) -> String {
        "undo \(undo.sync.label)? Of the \(memos(undo.putBack)) it changed here, it brings back what it deleted and puts back "
            + "their tags; it keeps every text it brought and the \(memos(undo.kept)) it added; " + nextSync(undo)
            + " [y/N] "
    }

    static func report(_ undo: SyncUndoPreview) -> String {
        "undid \(undo.sync.label): \(memos(undo.putBack)) it changed put back (the texts it brought kept), "
            + "\(memos(undo.kept)) it added kept\n" + nextSync(undo)
    }

    /// The undo is concurrent with the peer's versions, so neither side loses anything.
    private static func nextSync(_ undo: SyncUndoPreview) -> String {
        let peer = undo.sync.peer ?? "the store it synced with"
        return
            "the next sync with \(peer) keeps both sides: a memo brought back here goes back there, and a tag added on either side stays"
    }

    private static func memos(_ count: Int) -> String {
        count == 1 ? "1 memo" : "\(count) memos"
    }
}
