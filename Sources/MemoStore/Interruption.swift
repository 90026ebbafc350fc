import CSQLite
import Synchronization

/// Ctrl-C while a command runs: a signal handler calls `request()`, which stops the SQL
/// statement running now (`sqlite3_interrupt`, as the sqlite3 shell does) and raises a flag
/// that loops between statements check. The command then fails inside its transaction,
/// so the store is left as it was.
package enum Interruption {
    private static let requested = Atomic<Bool>(false)
    /// The connection to interrupt, as a bit pattern: atomics are what a signal handler may touch.
    private static let connection = Atomic<Int>(0)

    /// Makes `store`'s connection the one that `request()` interrupts. The store must
    /// outlive the watch: call `stopWatching()` before it closes.
    package static func watch(_ store: MemoStore) {
        connection.store(Int(bitPattern: store.database.handleForInterruption), ordering: .sequentiallyConsistent)
    }

    package static func stopWatching() {
        connection.store(0, ordering: .sequentiallyConsistent)
    }

    /// Safe in a signal handler: two atomic operations and `sqlite3_interrupt`.
    package static func request() {
        requested.store(true, ordering: .sequentiallyConsistent)
        if let handle = OpaquePointer(bitPattern: connection.load(ordering: .sequentiallyConsistent)) {
            sqlite3_interrupt(handle)
        }
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
