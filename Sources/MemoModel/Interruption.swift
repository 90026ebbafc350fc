import Synchronization

/// Ctrl-C while a command runs: a signal handler calls `request()`, which raises a flag.
/// Every connection's progress handler (`Database`) reads it and stops the SQL statement
/// running at that moment, and loops between statements check it; the command then fails
/// inside its transaction, so the store is left as it was.
///
/// `sqlite3_interrupt` is not used: its flag stays raised while any statement of the
/// connection is active (FTS5 keeps a blob reader open for the whole transaction), so it
/// would also stop the ROLLBACK that undoes the interrupted command and leave the
/// transaction open. The progress handler lets a rollback through.
package enum Interruption {
    private static let requested = Atomic<Bool>(false)

    /// Safe in a signal handler: one atomic store.
    package static func request() {
        requested.store(true, ordering: .sequentiallyConsistent)
    }

    package static var isRequested: Bool {
        requested.load(ordering: .sequentiallyConsistent)
    }

    /// Forgets an earlier request: call before each command.
    package static func clear() {
        requested.store(false, ordering: .sequentiallyConsistent)
    }

    /// Throws `StoreError.interrupted` once a request came.
    package static func check() throws(StoreError) {
        if isRequested { throw .interrupted }
    }
}
