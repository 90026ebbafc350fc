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
    /// An age back from now, one instant on the wall clock: `7d`, `2w`, `3m`, `1y`,
    /// `2 days ago`, `a week ago`.
    case ago(Int, AgeUnit)
    case tomorrow
    /// `last friday`: the latest Friday before today; `next friday`: the first after today;
    /// `this friday`: the Friday of this week, Monday to Sunday (past or to come).
    case relativeWeekday(Relation, Weekday)
    /// A whole calendar week (Monday to Sunday), month or year: `last week`, `this month`,
    /// `next year`.
    case period(Relation, Period)
    /// A day at a time of day, one instant: `yesterday 21:30`, `monday at 8am`, or `21:30`
    /// (today).
    indirect case at(DateArgument, TimeOfDay)

    /// A day of the week; the raw value counts from Monday, as ISO 8601 does.
    package enum Weekday: Int, CaseIterable, Sendable {
        case monday, tuesday, wednesday, thursday, friday, saturday, sunday

        static let names = ["monday", "tuesday", "wednesday", "thursday", "friday", "saturday", "sunday"]

        /// `monday` or `mon`, lower-case.
        init?<Name: StringProtocol>(name: Name) {
            guard let index = Self.names.firstIndex(where: { name == $0 || name == $0.prefix(3) }) else { return nil }
            self = Self.allCases[index]
        }
    }

    /// The unit of an age: days, weeks, calendar months or calendar years.
    package enum AgeUnit: Character, Sendable {
        case days = "d", weeks = "w", months = "m", years = "y"
    }

    /// Which of the weekdays or periods of that name: before, around or after today.
    package enum Relation: String, CaseIterable, Sendable {
        case last, this, next
    }

    /// A calendar period: a week runs Monday to Sunday, as ISO 8601 weeks do.
    package enum Period: String, CaseIterable, Sendable {
        case week, month, year
    }

    /// Parses the accepted forms, or explains them. A word may hold several words of a date
    /// (`2 days ago`, as quoted or as an option's value reads it).
    package static func parse(_ word: Word) throws(CommandError) -> DateArgument {
        switch DateWords.read(word.text) {
        case .success(let date): return date
        case .failure: throw invalid(word)
        }
    }

    /// The most words a date takes: `2 days ago at 9pm`.
    static let mostWords = 5

    /// The forms, as errors and help name them.
    package static let forms =
        "YYYY-MM-DD, YYYY-MM-DDTHH:MM[:SS[.sss]]Z (or +HH:MM), now, today, yesterday, tomorrow, "
        + "a weekday (monday), last/this/next WEEKDAY, last/this/next week/month/year, "
        + "an age (7d, 2w, 3m, 1y, 2 days ago, a week ago), "
        + "and a time (21:30, 9pm, 9:30am, noon, midnight) alone for today or after a day (yesterday 21:30, yesterday at 9pm)"

    static func invalid(_ word: Word) -> CommandError {
        .invalid("invalid date '\(word.text)': use \(forms)", range: word.range)
    }
}
