extension DateArgument: CustomStringConvertible {
    /// The date in the words of its grammar (`2024-03-01 21:30`, `last friday`, `7d`), as an
    /// error about its resolved instant quotes it: what was typed, in its plainest spelling.
    package var description: String {
        switch self {
        case .day(let date): date.description
        case .instant(let instant): DisplayTime.iso8601(instant, clamping: false)
        case .now: "now"
        case .today: "today"
        case .yesterday: "yesterday"
        case .tomorrow: "tomorrow"
        case .weekday(let weekday): weekday.name
        case .ago(let count, let unit): "\(count)\(unit.rawValue)"
        case .relativeWeekday(let relation, let weekday): "\(relation.rawValue) \(weekday.name)"
        case .period(let relation, let period): "\(relation.rawValue) \(period.rawValue)"
        case .at(let date, let time): "\(date) \(time)"
        }
    }
}

extension DateArgument.Weekday {
    var name: String { Self.names[rawValue] }
}

extension CivilDate: CustomStringConvertible {
    /// `YYYY-MM-DD`.
    package var description: String {
        "\(Self.padded(year, 4))-\(Self.padded(month, 2))-\(Self.padded(day, 2))"
    }

    /// `number` in at least `digits` digits, zeros before.
    static func padded(_ number: Int, _ digits: Int) -> String {
        let text = String(number)
        return String(repeating: "0", count: max(0, digits - text.count)) + text
    }
}

extension TimeOfDay: CustomStringConvertible {
    /// `HH:MM`, or `HH:MM:SS` when it has seconds: the 24-hour clock.
    package var description: String {
        let minutes = "\(CivilDate.padded(hour, 2)):\(CivilDate.padded(minute, 2))"
        return second == 0 ? minutes : minutes + ":" + CivilDate.padded(second, 2)
    }
}
