import FoundationEssentials
import Glibc
import MemoStore
import Synchronization

/// A calendar day in the proleptic Gregorian calendar.
package struct CivilDate: Equatable, Sendable {
    package var year: Int
    package var month: Int
    package var day: Int

    /// Days since 1970-01-01, by Howard Hinnant's `days_from_civil`.
    var daysSince1970: Int {
        let y = month <= 2 ? year - 1 : year
        let era = (y >= 0 ? y : y - 399) / 400
        let yearOfEra = y - era * 400
        let dayOfYear = (153 * (month + (month > 2 ? -3 : 9)) + 2) / 5 + day - 1
        let dayOfEra = yearOfEra * 365 + yearOfEra / 4 - yearOfEra / 100 + dayOfYear
        return era * 146_097 + dayOfEra - 719_468
    }

    /// The day `days` after 1970-01-01, by Howard Hinnant's `civil_from_days`.
    init(daysSince1970 days: Int) {
        let z = days + 719_468
        let era = (z >= 0 ? z : z - 146_096) / 146_097
        let dayOfEra = z - era * 146_097
        let yearOfEra = (dayOfEra - dayOfEra / 1460 + dayOfEra / 36524 - dayOfEra / 146_096) / 365
        let dayOfYear = dayOfEra - (365 * yearOfEra + yearOfEra / 4 - yearOfEra / 100)
        let monthIndex = (5 * dayOfYear + 2) / 153
        day = dayOfYear - (153 * monthIndex + 2) / 5 + 1
        month = monthIndex < 10 ? monthIndex + 3 : monthIndex - 9
        year = yearOfEra + era * 400 + (month <= 2 ? 1 : 0)
    }

    package init(year: Int, month: Int, day: Int) {
        self.year = year
        self.month = month
        self.day = day
    }

    /// Whether the day exists (no February 30th).
    var isValid: Bool {
        (1...12).contains(month) && day >= 1 && CivilDate(daysSince1970: daysSince1970) == self
    }

    func adding(days: Int) -> CivilDate {
        CivilDate(daysSince1970: daysSince1970 + days)
    }

    /// The same day `months` calendar months later (earlier when negative), or the last day
    /// of that month when it is shorter.
    func adding(months: Int) -> CivilDate {
        let monthIndex = year * 12 + (month - 1) + months
        let year = Int(floorDivide(Int64(monthIndex), 12)), month = monthIndex - year * 12 + 1
        var date = CivilDate(year: year, month: month, day: day)
        while !date.isValid { date.day -= 1 }
        return date
    }

    /// Its day of the week: 1970-01-01 was a Thursday.
    var weekday: DateArgument.Weekday {
        let index = (daysSince1970 + 3) % 7
        return DateArgument.Weekday.allCases[index < 0 ? index + 7 : index]
    }
}

/// Converts between instants and the wall clock of one time zone.
package struct DisplayTime: Sendable {
    /// Seconds east of UTC in force at an instant (seconds since 1970).
    private let offsetAt: @Sendable (Int64) -> Int

    package init(timeZone: TimeZone) {
        offsetAt = { timeZone.secondsFromGMT(for: Date(timeIntervalSince1970: Double($0))) }
    }

    package static let utc = DisplayTime { _ in 0 }

    /// The system's zone (`TZ`, else `/etc/localtime`) read by the C library, as `date`
    /// and the sqlite3 shell read it. Foundation's `TimeZone.current` gives the same
    /// answers but sets up ICU's zone tables first, a measurable part of memo's start-up.
    package static let system: DisplayTime = {
        tzset()
        return DisplayTime(
            offsetAt: onceAnHour { seconds in
                var time = time_t(seconds)
                var fields = tm()
                guard localtime_r(&time, &fields) != nil else { return 0 }
                return Int(fields.tm_gmtoff)
            })
    }()

    /// `offsetAt` asked once for each hour of instants in a row (a listing's memos, a
    /// calendar's), not for each: when the offset at the hour's first and last second agree,
    /// it holds for the whole hour, as no zone changes its clocks twice within one. The C
    /// library's look-up was a tenth of a text listing's time.
    static func onceAnHour(_ offsetAt: @escaping @Sendable (Int64) -> Int) -> @Sendable (Int64) -> Int {
        let lastHour = Atomic<Int64>(HourOffset.none)
        return { seconds in
            let hour = floorDivide(seconds, 3600)
            if let offset = HourOffset.offset(in: hour, from: lastHour.load(ordering: .relaxed)) { return offset }
            let offset = offsetAt(hour * 3600)
            guard offsetAt(hour * 3600 + 3599) == offset else { return offsetAt(seconds) }
            lastHour.store(HourOffset.packing(hour, offset), ordering: .relaxed)
            return offset
        }
    }

    /// An hour and the offset in force through it in one word, for an atomic load: the hour
    /// in the high 40 bits, the offset (under a day either way) plus 2^23 in the low 24.
    private enum HourOffset {
        static let none = Int64.min

        static func packing(_ hour: Int64, _ offset: Int) -> Int64 {
            guard abs(hour) < 1 << 38, abs(offset) < 1 << 22 else { return none }
            return hour << 24 | Int64(offset + 1 << 23)
        }

        static func offset(in hour: Int64, from packed: Int64) -> Int? {
            guard packed != none, packed >> 24 == hour else { return nil }
            return Int(packed & 0xFF_FFFF) - 1 << 23
        }
    }

    /// A zone given by its offsets: tests count the lookups.
    init(offsetAt: @escaping @Sendable (Int64) -> Int) {
        self.offsetAt = offsetAt
    }

    /// Seconds east of UTC in force at `secondsSince1970`: `calendar` and `stats` bucket memos by it.
    func utcOffsetSeconds(at secondsSince1970: Int64) -> Int { offsetAt(secondsSince1970) }

    /// The instant at which `date` begins in this time zone: its first midnight, or the
    /// first instant after a midnight that summer time skips.
    func startOfDay(_ date: CivilDate) -> Timestamp {
        instant(on: date, atMillisecond: 0)
    }

    /// The instant the wall clock shows `millisecond` into `date`. A time that summer time
    /// skips is read with the offset in force before the change, so it lands as far past the
    /// change as it was past its start (02:30 on the morning clocks go from 02:00 to 03:00 is
    /// 03:30); a time shown twice when summer time ends is the first of the two.
    func instant(on date: CivilDate, atMillisecond millisecond: Int64) -> Timestamp {
        let local = Int64(date.daysSince1970) * 86_400_000 + millisecond
        let localSeconds = floorDivide(local, 1000)
        let before = Int64(offsetAt(localSeconds - 86_400)), after = Int64(offsetAt(localSeconds + 86_400))
        let candidates = [before, after].filter { Int64(offsetAt(localSeconds - $0)) == $0 }
        let offset = candidates.max() ?? before
        return Timestamp(millisecondsSince1970: local - offset * 1000)
    }

    /// How far into its day, on this zone's wall clock, an instant is.
    func millisecondsIntoDay(_ instant: Timestamp) -> Int64 {
        localMilliseconds(instant) - Int64(day(of: instant).daysSince1970) * 86_400_000
    }

    /// `instant` moved by whole days, or by calendar months, on this zone's wall clock: the
    /// time of day stays (as `instant(on:atMillisecond:)` reads it on a day clocks change).
    func shift(_ instant: Timestamp, days: Int = 0, months: Int = 0) -> Timestamp {
        guard days != 0 || months != 0 else { return instant }
        let shifted = day(of: instant).adding(months: months).adding(days: days)
        return self.instant(on: shifted, atMillisecond: millisecondsIntoDay(instant))
    }

    /// The day an instant falls on in this time zone.
    func day(of instant: Timestamp) -> CivilDate {
        CivilDate(daysSince1970: Int(floorDivide(localMilliseconds(instant), 86_400_000)))
    }

    /// `YYYY-MM-DD HH:MM:SS` on this time zone's wall clock.
    package func format(_ instant: Timestamp) -> String {
        var bytes: [UInt8] = []
        appendFormatted(instant, to: &bytes)
        return String(decoding: bytes, as: UTF8.self)
    }

    /// `format`, appended as bytes.
    func appendFormatted(_ instant: Timestamp, to bytes: inout [UInt8]) {
        Self.append(
            milliseconds: localMilliseconds(instant), dateTimeSeparator: UInt8(ascii: " "), fraction: false,
            suffix: nil,
            to: &bytes)
    }

    /// `YYYY-MM-DDTHH:MM:SS.sssZ`: the JSON form, always UTC. `clamping: false` writes an
    /// instant outside the years memo keeps as it is, for an error that quotes it.
    package static func iso8601(_ instant: Timestamp, clamping: Bool = true) -> String {
        var bytes: [UInt8] = []
        appendISO8601(instant, clamping: clamping, to: &bytes)
        return String(decoding: bytes, as: UTF8.self)
    }

    /// `iso8601`, appended as bytes.
    static func appendISO8601(_ instant: Timestamp, clamping: Bool = true, to bytes: inout [UInt8]) {
        append(
            milliseconds: (clamping ? instant.clampedToRepresentable : instant).millisecondsSince1970,
            dateTimeSeparator: UInt8(ascii: "T"), fraction: true, suffix: UInt8(ascii: "Z"), to: &bytes)
    }

    private func localMilliseconds(_ instant: Timestamp) -> Int64 {
        let milliseconds = instant.clampedToRepresentable.millisecondsSince1970
        let offset = offsetAt(floorDivide(milliseconds, 1000))
        return milliseconds + Int64(offset) * 1000
    }

    /// Formats into bytes: it runs for every memo of a listing or an export, so the digits
    /// are written into a buffer on the stack and appended at once.
    private static func append(
        milliseconds: Int64, dateTimeSeparator: UInt8, fraction: Bool, suffix: UInt8?,
        to bytes: inout [UInt8]
    ) {
        let days = floorDivide(milliseconds, 86_400_000)
        let dayMilliseconds = Int(milliseconds - days * 86_400_000)
        let date = CivilDate(daysSince1970: Int(days))
        let seconds = dayMilliseconds / 1000
        if date.year < 0 || date.year > 9999 {
            bytes += String(date.year).utf8
        }
        withUnsafeTemporaryAllocation(of: UInt8.self, capacity: 24) { buffer in
            var end = 0
            func put(_ byte: UInt8) {
                buffer[end] = byte
                end += 1
            }
            /// The digits from the last: a division by the constant 10 is a multiplication.
            func put(_ number: Int, digits: Int) {
                var rest = number, position = end + digits
                while position > end {
                    position -= 1
                    buffer[position] = UInt8(ascii: "0") &+ UInt8(truncatingIfNeeded: rest % 10)
                    rest /= 10
                }
                end += digits
            }
            if (0...9999).contains(date.year) { put(date.year, digits: 4) }
            put(UInt8(ascii: "-"))
            put(date.month, digits: 2)
            put(UInt8(ascii: "-"))
            put(date.day, digits: 2)
            put(dateTimeSeparator)
            put(seconds / 3600, digits: 2)
            put(UInt8(ascii: ":"))
            put(seconds / 60 % 60, digits: 2)
            put(UInt8(ascii: ":"))
            put(seconds % 60, digits: 2)
            if fraction {
                put(UInt8(ascii: "."))
                put(dayMilliseconds % 1000, digits: 3)
            }
            if let suffix { put(suffix) }
            bytes += UnsafeBufferPointer(rebasing: buffer[..<end])
        }
    }
}

/// Division that rounds toward negative infinity, for instants before 1970.
func floorDivide(_ value: Int64, _ divisor: Int64) -> Int64 {
    let quotient = value / divisor
    return (value % divisor != 0 && (value < 0) != (divisor < 0)) ? quotient - 1 : quotient
}
