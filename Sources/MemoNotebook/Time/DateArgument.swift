import MemoStore

/// A date as typed in a command, resolved later against the session's clock and time zone
/// (so `today` or `7d` in a script mean the script's deterministic day and time).
package enum DateArgument: Equatable, Sendable {
    /// A whole day in the display time zone: `2024-03-01`.
    case day(CivilDate)
    /// One instant: `2024-03-01T09:30Z`, `2024-03-01T09:30:00.250+09:00`.
    case instant(Timestamp)
    /// The moment the command runs.
    case now
    case today
    case yesterday
    /// The most recent day with this weekday, today included: `monday`.
    case weekday(Weekday)
    /// An age back from now: `7d`, `2w`, `3m`, `1y`.
    case ago(Int, AgeUnit)

    /// A day of the week; the raw value counts from Monday, as ISO 8601 does.
    package enum Weekday: Int, CaseIterable, Sendable {
        case monday, tuesday, wednesday, thursday, friday, saturday, sunday

        private static let names = ["monday", "tuesday", "wednesday", "thursday", "friday", "saturday", "sunday"]

        /// `monday` or `mon`, lower-case.
        init?(name: String) {
            guard let index = Self.names.firstIndex(where: { name == $0 || name == $0.prefix(3) }) else { return nil }
            self = Self.allCases[index]
        }
    }

    /// The unit of an age: days, weeks, calendar months or calendar years.
    package enum AgeUnit: Character, Sendable {
        case days = "d", weeks = "w", months = "m", years = "y"
    }

    /// Parses the accepted forms, or explains them.
    /// The ISO forms are tried first: an import parses one for every record.
    package static func parse(_ word: Word) throws(CommandError) -> DateArgument {
        var scanner = DigitScanner(word.text)
        guard let date = scanner.date() else { return try parseName(word) }
        if scanner.isAtEnd { return .day(date) }
        guard scanner.skip("T") || scanner.skip("t"), let seconds = scanner.timeOfDay(),
            let offset = scanner.zoneOffset(), scanner.isAtEnd
        else { throw invalid(word) }
        let localMilliseconds = Int64(date.daysSince1970) * 86_400_000 + seconds
        return .instant(Timestamp(millisecondsSince1970: localMilliseconds - offset * 1000))
    }

    /// `now`, `today`, `yesterday`, a weekday or an age.
    private static func parseName(_ word: Word) throws(CommandError) -> DateArgument {
        let name = word.text.lowercased()
        switch name {
        case "now": return .now
        case "today": return .today
        case "yesterday": return .yesterday
        default: break
        }
        if let weekday = Weekday(name: name) { return .weekday(weekday) }
        if let unit = name.last.flatMap(AgeUnit.init), name.dropLast().allSatisfy({ $0.isASCII && $0.isNumber }),
            let count = Int(name.dropLast()), count <= maximumAge(unit)
        {
            return .ago(count, unit)
        }
        throw invalid(word)
    }

    /// Ages reach back at most 10,000 years, far enough for any memo and safe from overflow.
    private static func maximumAge(_ unit: AgeUnit) -> Int {
        switch unit {
        case .days: 3_652_500
        case .weeks: 521_786
        case .months: 120_000
        case .years: 10_000
        }
    }

    /// The forms, as errors and help name them.
    package static let forms =
        "YYYY-MM-DD, YYYY-MM-DDTHH:MM[:SS[.sss]]Z (or +HH:MM), now, today, yesterday, "
        + "a weekday (monday) or an age (7d, 2w, 3m, 1y)"

    private static func invalid(_ word: Word) -> CommandError {
        .invalid("invalid date '\(word.text)': use \(forms)", range: word.range)
    }
}

extension DateArgument {
    /// The first instant this argument covers.
    func start(now: Timestamp, in time: DisplayTime) -> Timestamp {
        instant(now: now, in: time) ?? time.startOfDay(day(now: now, in: time))
    }

    /// The first instant after what this argument covers: the next day for a day, the next
    /// millisecond for an instant.
    func end(now: Timestamp, in time: DisplayTime) -> Timestamp {
        instant(now: now, in: time)?.adding(milliseconds: 1) ?? time.startOfDay(day(now: now, in: time).adding(days: 1))
    }

    /// The calendar day meant: an instant means the day it falls on.
    func day(now: Timestamp, in time: DisplayTime) -> CivilDate {
        if let instant = instant(now: now, in: time) { return time.day(of: instant) }
        let today = time.day(of: now)
        switch self {
        case .day(let date): return date
        case .yesterday: return today.adding(days: -1)
        case .weekday(let weekday): return today.adding(days: -((today.weekday.rawValue - weekday.rawValue + 7) % 7))
        default: return today
        }
    }

    /// The one instant meant, or nil for a whole day. An age in months or years keeps the
    /// wall-clock time and the day of the month, or the month's last day when it is shorter
    /// (`1m` on March 31 is February 28 or 29).
    private func instant(now: Timestamp, in time: DisplayTime) -> Timestamp? {
        switch self {
        case .instant(let instant): return instant
        case .now: return now
        case .ago(let count, .days): return time.shift(now, days: -count)
        case .ago(let count, .weeks): return time.shift(now, days: -7 * count)
        case .ago(let count, .months): return time.shift(now, months: -count)
        case .ago(let count, .years): return time.shift(now, months: -12 * count)
        default: return nil
        }
    }
}

/// Reads the fixed-width numeric fields of ISO 8601 dates.
private struct DigitScanner {
    /// The text's UTF-8 bytes: every character of the forms is ASCII, so a byte is a character.
    private let bytes: [UInt8]
    private var index = 0

    init(_ text: String) {
        bytes = Array(text.utf8)
    }

    var isAtEnd: Bool { index == bytes.count }

    mutating func skip(_ character: Character) -> Bool {
        guard index < bytes.count, let ascii = character.asciiValue, bytes[index] == ascii else { return false }
        index += 1
        return true
    }

    mutating func number(digits: Int) -> Int? {
        guard index + digits <= bytes.count else { return nil }
        var value = 0
        for byte in bytes[index..<index + digits] {
            guard byte >= UInt8(ascii: "0"), byte <= UInt8(ascii: "9") else { return nil }
            value = value * 10 + Int(byte - UInt8(ascii: "0"))
        }
        index += digits
        return value
    }

    /// `YYYY-MM-DD`, checked against the calendar.
    mutating func date() -> CivilDate? {
        guard let year = number(digits: 4), skip("-"), let month = number(digits: 2), skip("-"),
            let day = number(digits: 2)
        else { return nil }
        let date = CivilDate(year: year, month: month, day: day)
        return date.isValid ? date : nil
    }

    /// `HH:MM[:SS[.sss]]` as milliseconds into the day.
    mutating func timeOfDay() -> Int64? {
        guard let hour = number(digits: 2), hour < 24, skip(":"), let minute = number(digits: 2), minute < 60
        else { return nil }
        var second = 0, millisecond = 0
        if skip(":") {
            guard let value = number(digits: 2), value < 60 else { return nil }
            second = value
            if skip(".") {
                guard let value = fraction() else { return nil }
                millisecond = value
            }
        }
        return Int64(((hour * 60 + minute) * 60 + second) * 1000 + millisecond)
    }

    /// The digits after a decimal point as milliseconds: `.9` is 900, `.25` 250; digits past
    /// the third are cut, as memo keeps time to the millisecond.
    mutating func fraction() -> Int? {
        var milliseconds = 0, digits = 0
        while index < bytes.count, bytes[index] >= UInt8(ascii: "0"), bytes[index] <= UInt8(ascii: "9") {
            if digits < 3 { milliseconds = milliseconds * 10 + Int(bytes[index] - UInt8(ascii: "0")) }
            digits += 1
            index += 1
        }
        guard digits > 0 else { return nil }
        for _ in digits..<max(digits, 3) { milliseconds *= 10 }
        return milliseconds
    }

    /// `Z` or `±HH:MM`, as seconds east of UTC.
    mutating func zoneOffset() -> Int64? {
        if skip("Z") || skip("z") { return 0 }
        let sign: Int64
        if skip("+") { sign = 1 } else if skip("-") { sign = -1 } else { return nil }
        guard let hours = number(digits: 2), hours <= 23, skip(":"), let minutes = number(digits: 2), minutes < 60
        else { return nil }
        return sign * Int64(hours * 3600 + minutes * 60)
    }
}
