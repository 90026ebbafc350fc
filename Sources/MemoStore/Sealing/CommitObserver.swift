/// Saves a sealed store (`SealedStoreFile`) after each commit that changed it: SQLite's
/// commit hook marks the change as the transaction commits (its pages are not in the image
/// yet), and the statement that ended the transaction saves once SQLite is back in
/// autocommit mode. A save that fails leaves the mark, so the next commit saves again.
final class CommitObserver {
    /// Set by SQLite's commit hook; cleared by a save that succeeded.
    var hasUnsavedCommit = false
    /// A save runs statements of its own (it notes the new file in the store): their
    /// commits are part of the save, not new ones.
    private var isSaving = false
    private let save: () throws -> Void

    init(save: @escaping () throws -> Void) {
        self.save = save
    }

    func saveIfCommitted(autocommit: Bool) throws {
        guard hasUnsavedCommit, autocommit, !isSaving else { return }
        isSaving = true
        defer { isSaving = false }
        try save()
        hasUnsavedCommit = false
    }
}
