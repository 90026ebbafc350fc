import CSQLite

/// Saves a sealed store (`SealedStoreFile`) after each commit that changed it: SQLite's
/// commit hook marks the change as the transaction commits (its pages are not in the image
/// yet), and the statement that ended the transaction saves once SQLite is back in
/// autocommit mode. A save that fails leaves the mark, so the next commit saves again.
final class CommitObserver {
    /// Set by SQLite's commit hook (`noteCommit`); cleared by a save that succeeded.
    var hasUnsavedCommit = false
    /// The connection whose main database is the store.
    private let connection: OpaquePointer
    private let save: () throws -> Void

    init(connection: OpaquePointer, save: @escaping () throws -> Void) {
        self.connection = connection
        self.save = save
    }

    /// From SQLite's commit hook: marks the commit for a save when it writes the store. A
    /// commit that wrote only temporary tables (the staging table a first change creates)
    /// left the image as it was, and saving it again would write and sync the whole file
    /// for nothing.
    func noteCommit() {
        if sqlite3_txn_state(connection, "main") == SQLITE_TXN_WRITE { hasUnsavedCommit = true }
    }

    func saveIfCommitted(autocommit: Bool) throws {
        guard hasUnsavedCommit, autocommit else { return }
        try save()
        hasUnsavedCommit = false
    }
}
