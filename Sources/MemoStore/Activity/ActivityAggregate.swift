import CSQLite

/// `memo_activity(insert_date, words, offsets)` in SQL: an aggregate that counts memos, and
/// sums their `words` (the row's `word_count`; NULL counts none), by hour of the display
/// time zone's wall clock. `offsets` (`UTCOffsetChange.sqlArgument`) says how far that wall
/// clock is ahead of UTC from each instant on, so each memo lands in its local hour across
/// daylight-saving changes. Its result is a blob of `HourActivity` triples (native 64-bit
/// integers), in hour order.
///
/// Aggregating inside SQLite's scan of the insert-date index (which holds both arguments) is
/// what keeps a million memos fast: no row goes to Swift, no text is read, and no `GROUP BY`
/// sorts them (SQLite would sort every row by the computed hour).
/// Memory grows with the hours that hold memos, never with the memos.
enum ActivityAggregate {
    static func register(on connection: OpaquePointer) {
        sqlite3_create_function_v2(
            connection, "memo_activity", 3, SQLITE_UTF8, nil, nil,
            { context, _, arguments in
                guard let context, let arguments, let slot = ActivityAggregate.tallySlot(context) else { return }
                let tally: ActivityTally
                if let kept = slot.pointee {
                    tally = Unmanaged<ActivityTally>.fromOpaque(kept).takeUnretainedValue()
                } else {
                    tally = ActivityTally(offsets: ActivityAggregate.text(of: arguments[2]))
                    slot.pointee = Unmanaged.passRetained(tally).toOpaque()
                }
                let words = Int(sqlite3_value_int64(arguments[1]))
                tally.add(instant: sqlite3_value_int64(arguments[0]), words: words)
            },
            { context in
                guard let context else { return }
                var hours: [HourActivity] = []
                if let slot = sqlite3_aggregate_context(context, 0)?.assumingMemoryBound(
                    to: UnsafeMutableRawPointer?.self), let kept = slot.pointee
                {
                    hours = Unmanaged<ActivityTally>.fromOpaque(kept).takeRetainedValue().hours()
                    slot.pointee = nil
                }
                var integers = hours.flatMap { [$0.localHour, Int64($0.memos), Int64($0.words)] }
                integers.withUnsafeMutableBytes { bytes in
                    sqlite3_result_blob64(
                        context, bytes.baseAddress, sqlite3_uint64(bytes.count), memo_sqlite_transient())
                }
            }, nil)
    }

    /// Where this aggregate's tally is kept: SQLite's zeroed memory for the running statement.
    private static func tallySlot(_ context: OpaquePointer) -> UnsafeMutablePointer<UnsafeMutableRawPointer?>? {
        sqlite3_aggregate_context(context, Int32(MemoryLayout<UnsafeMutableRawPointer?>.size))?
            .assumingMemoryBound(to: UnsafeMutableRawPointer?.self)
    }

    private static func text(of value: OpaquePointer?) -> String {
        guard let value, let bytes = sqlite3_value_text(value) else { return "" }
        return String(
            decoding: UnsafeBufferPointer(start: bytes, count: Int(sqlite3_value_bytes(value))), as: UTF8.self)
    }

    /// The blob `memo_activity` returns, read back.
    static func hours(in blob: UnsafeRawBufferPointer) -> [HourActivity] {
        var integers = [Int64](repeating: 0, count: blob.count / MemoryLayout<Int64>.size)
        integers.withUnsafeMutableBytes { $0.copyMemory(from: UnsafeRawBufferPointer(rebasing: blob.prefix($0.count))) }
        return stride(from: 0, to: integers.count - 2, by: 3).map {
            HourActivity(localHour: integers[$0], memos: Int(integers[$0 + 1]), words: Int(integers[$0 + 2]))
        }
    }
}

/// The running count of one `memo_activity` call.
private final class ActivityTally {
    /// Milliseconds since 1970 each offset starts at, and the offsets in milliseconds.
    private let starts: [Int64]
    private let offsets: [Int64]
    /// The offset used last: rows mostly come in time order, so it is nearly always right.
    private var offsetIndex = 0
    private var byHour: [Int64: (memos: Int, words: Int)] = [:]
    /// The hour being counted, added to `byHour` when another comes.
    private var current: (hour: Int64, memos: Int, words: Int)?

    private static let hour: Int64 = 3_600_000

    init(offsets text: String) {
        let numbers = text.split(separator: " ").compactMap { Int64($0) }
        let pairs = stride(from: 0, to: numbers.count - 1, by: 2).map { (numbers[$0], numbers[$0 + 1]) }
        starts = pairs.isEmpty ? [Int64.min] : pairs.map(\.0)
        offsets = pairs.isEmpty ? [0] : pairs.map(\.1)
    }

    func add(instant: Int64, words: Int) {
        let local = instant &+ offset(at: instant)
        let hour = local >= 0 ? local / Self.hour : (local + 1) / Self.hour - 1
        if let counted = current, counted.hour == hour {
            current = (hour, counted.memos + 1, counted.words + words)
            return
        }
        keepCurrent()
        current = (hour, 1, words)
    }

    func hours() -> [HourActivity] {
        keepCurrent()
        return byHour.map { HourActivity(localHour: $0.key, memos: $0.value.memos, words: $0.value.words) }
            .sorted { $0.localHour < $1.localHour }
    }

    private func keepCurrent() {
        guard let counted = current else { return }
        let before = byHour[counted.hour] ?? (0, 0)
        byHour[counted.hour] = (before.memos + counted.memos, before.words + counted.words)
        current = nil
    }

    /// The offset in force at `instant`: the last one starting at or before it, the first
    /// one before them all.
    private func offset(at instant: Int64) -> Int64 {
        let index = offsetIndex
        if starts[index] <= instant, index + 1 == starts.count || instant < starts[index + 1] { return offsets[index] }
        var low = 0, high = starts.count - 1
        while low < high {
            let middle = (low + high + 1) / 2
            if starts[middle] <= instant { low = middle } else { high = middle - 1 }
        }
        offsetIndex = low
        return offsets[low]
    }
}
