import FoundationEssentials
import MemoStore

/// Where a session's timestamps come from. Nothing else in memo reads the time.
package protocol MemoClock: AnyObject {
    /// Hands out the timestamp of a change.
    func now() -> Timestamp
    /// The present moment, without handing out a timestamp (for `today`).
    var current: Timestamp { get }
    /// Takes back the timestamps handed out since `current` was `mark`, for a command that
    /// failed: in scripts only changes that happen move the clock.
    func rewind(to mark: Timestamp)
}

/// The system's clock, to the millisecond: for people.
package final class SystemClock: MemoClock {
    package init() {}

    package func now() -> Timestamp { current }

    /// The system clock moves on by itself.
    package func rewind(to mark: Timestamp) {}

    package var current: Timestamp {
        Timestamp(millisecondsSince1970: Int64((Date().timeIntervalSince1970 * 1000).rounded(.down)))
    }
}

/// A clock a script can set (`clock DATE`).
package protocol SettableClock: MemoClock {
    /// Sets the next timestamp handed out; from then on the clock is deterministic.
    func set(to timestamp: Timestamp)
}

/// A clock for scripts and tests: starts at 2000-01-01T00:00:00Z and moves one second
/// forward each time it hands out a timestamp, so output is the same on every run.
package final class DeterministicClock: SettableClock {
    package static let start = Timestamp(secondsSince1970: 946_684_800)
    private var next: Timestamp

    package init(start: Timestamp = DeterministicClock.start) {
        next = start
    }

    package func now() -> Timestamp {
        defer { next = next.adding(milliseconds: 1000) }
        return next
    }

    package var current: Timestamp { next }

    /// Sets the next timestamp handed out.
    package func set(to timestamp: Timestamp) {
        next = timestamp
    }

    package func rewind(to mark: Timestamp) {
        next = mark
    }
}

/// The clock of a script run on a store file: the system's, so what a script writes into a
/// notebook is dated when it ran and orders, imports and syncs with the rest of it (dates of
/// 2000 would sort before every memo typed, and lose to any import); the deterministic clock
/// is for in-memory runs, whose output is compared. `clock DATE` makes it deterministic from
/// DATE, for a script that dates what it writes on purpose.
package final class StoreScriptClock: SettableClock {
    private let system = SystemClock()
    private var fixed: DeterministicClock?

    package init() {}

    package func now() -> Timestamp { fixed?.now() ?? system.now() }

    package var current: Timestamp { fixed?.current ?? system.current }

    package func rewind(to mark: Timestamp) { fixed?.rewind(to: mark) }

    package func set(to timestamp: Timestamp) {
        fixed = DeterministicClock(start: timestamp)
    }
}

/// Where new memos' uuids come from.
package protocol UUIDSource: AnyObject {
    func next() -> String
    /// Where the source stands, so that a failed command can give back what it took.
    var mark: UInt64 { get }
    func rewind(to mark: UInt64)
    /// Whether it gave out uuids that another run gives out too.
    var gaveReproducibleUUIDs: Bool { get }
}

/// Random version-4 uuids, lower-case: for people.
package final class RandomUUIDs: UUIDSource {
    package init() {}

    package func next() -> String {
        UUIDText.random().canonical
    }

    /// Random uuids have no position to give back.
    package var mark: UInt64 { 0 }
    package func rewind(to mark: UInt64) {}
    package var gaveReproducibleUUIDs: Bool { false }
}

/// `00000000-0000-4000-8000-000000000001`, `…002`, …: valid version-4 uuids that are the
/// same on every run of a script. The notebook skips those a store already holds.
package final class SequentialUUIDs: UUIDSource {
    private var counter: UInt64 = 0

    package var mark: UInt64 { counter }

    package func rewind(to mark: UInt64) {
        counter = mark
    }

    package var gaveReproducibleUUIDs: Bool { counter > 0 }

    package init() {}

    package func next() -> String {
        counter += 1
        let digits = String(counter, radix: 16)
        return "00000000-0000-4000-8000-" + String(repeating: "0", count: max(0, 12 - digits.count)) + digits
    }
}
