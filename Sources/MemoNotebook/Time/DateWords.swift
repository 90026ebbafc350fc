import MemoStore

/// The one grammar of DATE, read from its words lower-cased: a day (`2024-03-01`,
/// `yesterday`, `last friday`, `2 days ago`…) with an optional time of day after it
/// (`yesterday 21:30`, or `yesterday at 9pm` as jrnl writes it), a time of day alone
/// (today), an instant, or a calendar period.
struct DateWords {
    /// Why words are no date: they stop short of one (`last`, `2 days`: a word more could
    /// make one), or a word cannot be read where it stands.
    enum Failure: Error { case incomplete, unreadable }

    private let words: [Substring]
    private var index = 0

    /// The words a date starts with, as completion offers them.
    static let firstWords =
        ["now", "today", "yesterday", "tomorrow"] + DateArgument.Relation.allCases.map(\.rawValue)
        + DateArgument.Weekday.names + ["noon", "midnight"]
    /// The words after `last`, `this` or `next`.
    static let wordsAfterRelation = DateArgument.Weekday.names + DateArgument.Period.allCases.map(\.rawValue)

    private init(_ text: String) {
        words = text.lowercased().split(whereSeparator: \.isBlank)
    }

    static func read(_ text: String) -> Result<DateArgument, Failure> {
        if let date = try? iso(text[...]) { return .success(date) }
        var reader = DateWords(text)
        do throws(Failure) {
            return .success(try reader.date())
        } catch {
            return .failure(error)
        }
    }

    /// Whether no words after these could make them a date (`2 dayz`), as some could after
    /// `last` or `2 days`.
    static func isDeadEnd(_ text: String) -> Bool {
        if case .failure(.unreadable) = read(text) { true } else { false }
    }

    private mutating func date() throws(Failure) -> DateArgument {
        var date = try day()
        if index < words.count {
            guard date.takesTimeOfDay else { throw .unreadable }
            // `at` stands only between a day and its time: `at` alone or before another word is no date.
            if words[index] == "at", try take() == "at", index == words.count { throw .incomplete }
            guard let time = TimeOfDay(words[index]) else { throw .unreadable }
            index += 1
            date = .at(date, time)
        }
        guard index == words.count else { throw .unreadable }
        return date
    }

    /// `YYYY-MM-DD` or an ISO 8601 instant, nil when the word starts with no date. Tried
    /// first, on the text as given: an import parses one for every record.
    private static func iso(_ word: Substring) throws(Failure) -> DateArgument? {
        var scanner = DigitScanner(word)
        guard let date = scanner.date() else { return nil }
        if scanner.isAtEnd { return .day(date) }
        guard scanner.skip("T") || scanner.skip("t"), let milliseconds = scanner.timeOfDay(),
            let offset = scanner.zoneOffset(), scanner.isAtEnd
        else { throw .unreadable }
        let local = Int64(date.daysSince1970) * 86_400_000 + milliseconds
        return .instant(Timestamp(millisecondsSince1970: local - offset * 1000))
    }

    /// What comes before a time of day; today, without taking a word, when a time starts.
    private mutating func day() throws(Failure) -> DateArgument {
        let word = try take()
        if let date = try Self.iso(word) { return date }
        switch word {
        case "now": return .now
        case "today": return .today
        case "yesterday": return .yesterday
        case "tomorrow": return .tomorrow
        default: break
        }
        if TimeOfDay(word) != nil {
            index -= 1
            return .today
        }
        if let weekday = DateArgument.Weekday(name: word) { return .weekday(weekday) }
        if let relation = DateArgument.Relation(rawValue: String(word)) {
            let what = try take()
            if let weekday = DateArgument.Weekday(name: what) { return .relativeWeekday(relation, weekday) }
            if let period = DateArgument.Period(rawValue: String(what)) { return .period(relation, period) }
            throw .unreadable
        }
        if let unit = word.last.flatMap(DateArgument.AgeUnit.init), let count = Self.count(word.dropLast()),
            count <= Self.maximumAge(unit)
        {
            return .ago(count, unit)
        }
        if let count = word == "a" || word == "an" ? 1 : Self.count(word) {
            guard let unit = Self.unit(named: try take()), count <= Self.maximumAge(unit), try take() == "ago" else {
                throw .unreadable
            }
            return .ago(count, unit)
        }
        throw .unreadable
    }

    /// The next word; a date that ends before it is incomplete.
    private mutating func take() throws(Failure) -> Substring {
        guard index < words.count else { throw .incomplete }
        index += 1
        return words[index - 1]
    }

    /// A count of ASCII digits (no sign, no other script's digits).
    private static func count(_ digits: Substring) -> Int? {
        guard !digits.isEmpty, digits.allSatisfy({ $0.isASCII && $0.isNumber }) else { return nil }
        return Int(digits)
    }

    /// `day` or `days`, and so on.
    private static func unit(named name: Substring) -> DateArgument.AgeUnit? {
        switch name.hasSuffix("s") ? name.dropLast() : name {
        case "day": .days
        case "week": .weeks
        case "month": .months
        case "year": .years
        default: nil
        }
    }

    /// Ages reach back at most 10,000 years, far enough for any memo and safe from overflow.
    private static func maximumAge(_ unit: DateArgument.AgeUnit) -> Int {
        switch unit {
        case .days: 3_652_500
        case .weeks: 521_786
        case .months: 120_000
        case .years: 10_000
        }
    }
}

extension DateArgument {
    /// Whether a time of day may follow: after a day, not after an instant or a period.
    fileprivate var takesTimeOfDay: Bool {
        switch self {
        case .day, .today, .yesterday, .tomorrow, .weekday, .relativeWeekday, .ago: true
        case .instant, .now, .period, .at: false
        }
    }
}
