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
    /// Takes in what the session did before the next uuid (a command line, an imported
    /// record's text): a source that repeats its uuids across runs makes them depend on it.
    func absorb(_ text: String)
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

    /// Random uuids depend on nothing.
    package func absorb(_ text: String) {}
    /// Random uuids have no position to give back.
    package var mark: UInt64 { 0 }
    package func rewind(to mark: UInt64) {}
    package var gaveReproducibleUUIDs: Bool { false }
}

/// The uuids of a scripted run in memory: `NNNNNNNN-NNNN-4NNN-8NNN-000000000001`, `…002`,
/// …, where the N digits are a hash of everything the run took in before the uuid (every
/// command line, every imported text; `absorb`). A script gives the same uuids on every run,
/// so its output can be compared; two scripts that differ before a memo is made never give
/// it the same uuid, so their exports do not merge unrelated memos. Before anything is
/// absorbed the N digits are zeros (`00000000-0000-4000-8000-000000000001`). The notebook
/// skips uuids a store already holds.
package final class SequentialUUIDs: UUIDSource {
    private var counter: UInt64 = 0
    /// Two FNV-1a hashes of what was absorbed, nil before anything was.
    private var namespace: (UInt64, UInt64)?

    package var mark: UInt64 { counter }

    package func rewind(to mark: UInt64) {
        counter = mark
    }

    package var gaveReproducibleUUIDs: Bool { counter > 0 }

    package init() {}

    package func absorb(_ text: String) {
        let (first, second) = namespace ?? (FNV1a.standardSeed, Self.secondSeed)
        // The length ends each text, so "ab" then "c" differs from "a" then "bc".
        let delimited = text + "\u{0}" + String(text.utf8.count)
        namespace = (FNV1a.hash(delimited, seed: first), FNV1a.hash(delimited, seed: second))
    }

    package func next() -> String {
        counter += 1
        let (first, second) = namespace ?? (0, 0)
        let high = first & ~0xF000 | 0x4000
        let low = 0x8000_0000_0000_0000 | (second & 0x0FFF) << 48 | counter & 0xFFFF_FFFF_FFFF
        return UUIDText(high: high, low: low).canonical
    }

    private static let secondSeed: UInt64 = 0x8422_2325_cbf2_9ce4
}
