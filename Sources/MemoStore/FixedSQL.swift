import Synchronization

/// SQL that a path runs once or more a memo (an import's, a replay's), held in a `static let`:
/// each connection keeps its prepared statement in a slot of the SQL's own, found by index
/// (`Database.cached(_: FixedSQL)`), where the cache by text hashes the text at every call
/// (a tenth of an import's statement work went to those look-ups). Only `static let`s make
/// one: every value takes a slot for the life of the process.
package final class FixedSQL: Sendable {
    package let sql: String
    /// Its place in each connection's slots.
    let slot: Int

    package init(_ sql: String) {
        self.sql = sql
        slot = Self.slotsTaken.add(1, ordering: .relaxed).oldValue
    }

    private static let slotsTaken = Atomic<Int>(0)
}
