import Foundation
import MemoStore
import Testing

@testable import MemoNotebook

/// Every form of DATE against a fixed clock in Europe/Berlin, whose summer time starts on
/// 2024-03-31 (02:00 CET becomes 03:00 CEST) and ends on 2024-10-27 (03:00 CEST becomes
/// 02:00 CET). Each row says, as instants with their offsets: where `--since` starts, where
/// `--until` ends (the first instant after what the date covers), and the moment a
/// back-dated memo takes.
@Suite("Natural dates")
struct NaturalDateTests {
    struct Row: CustomTestStringConvertible, Sendable {
        var typed: String
        var now: String
        var start: String
        var end: String
        var moment: String

        var testDescription: String { "\(typed) at \(now)" }

        /// A date that is one instant: `--since` starts at it, `--until` ends a millisecond
        /// after it, and a back-dated memo takes it.
        static func instant(_ typed: String, _ instant: String, now: String = wednesday) -> Row {
            Row(typed: typed, now: now, start: instant, end: instant, moment: instant)
        }

        /// A date of whole days: from `start` to just before `end`; a back-dated memo takes `moment`.
        static func days(
            _ typed: String, _ start: String, _ end: String, _ moment: String, now: String = wednesday
        )
            -> Row
        {
            Row(typed: typed, now: now, start: start, end: end, moment: moment)
        }
    }

    static let wednesday = "2024-03-27T14:45+01:00"
    /// Two days after summer time started.
    static let afterSpring = "2024-04-02T12:00+02:00"
    /// The day after summer time ended.
    static let afterAutumn = "2024-10-28T09:00+01:00"
    /// The second 02:30 of the day summer time ended.
    static let inTheRepeatedHour = "2024-10-27T02:30+01:00"

    static let rows: [Row] = [
        .days("2024-03-01", "2024-03-01T00:00+01:00", "2024-03-02T00:00+01:00", "2024-03-01T14:45+01:00"),
        .instant("2024-03-01T09:30Z", "2024-03-01T09:30Z"),
        .instant("now", "2024-03-27T14:45+01:00"),
        .days("today", "2024-03-27T00:00+01:00", "2024-03-28T00:00+01:00", "2024-03-27T14:45+01:00"),
        .days("yesterday", "2024-03-26T00:00+01:00", "2024-03-27T00:00+01:00", "2024-03-26T14:45+01:00"),
        .days("Tomorrow", "2024-03-28T00:00+01:00", "2024-03-29T00:00+01:00", "2024-03-28T14:45+01:00"),
        // A bare weekday: the latest one, today included.
        .days("monday", "2024-03-25T00:00+01:00", "2024-03-26T00:00+01:00", "2024-03-25T14:45+01:00"),
        .days("wed", "2024-03-27T00:00+01:00", "2024-03-28T00:00+01:00", "2024-03-27T14:45+01:00"),
        .days("thursday", "2024-03-21T00:00+01:00", "2024-03-22T00:00+01:00", "2024-03-21T14:45+01:00"),
        // `last`: strictly before today; `next`: strictly after; `this`: in this Monday-first week.
        .days("last friday", "2024-03-22T00:00+01:00", "2024-03-23T00:00+01:00", "2024-03-22T14:45+01:00"),
        .days("last wednesday", "2024-03-20T00:00+01:00", "2024-03-21T00:00+01:00", "2024-03-20T14:45+01:00"),
        .days("this monday", "2024-03-25T00:00+01:00", "2024-03-26T00:00+01:00", "2024-03-25T14:45+01:00"),
        .days("this friday", "2024-03-29T00:00+01:00", "2024-03-30T00:00+01:00", "2024-03-29T14:45+01:00"),
        .days("next friday", "2024-03-29T00:00+01:00", "2024-03-30T00:00+01:00", "2024-03-29T14:45+01:00"),
        .days("Next Wednesday", "2024-04-03T00:00+02:00", "2024-04-04T00:00+02:00", "2024-04-03T14:45+02:00"),
        // The Sunday of this week is the day summer time starts: 23 hours long.
        .days("this sunday", "2024-03-31T00:00+01:00", "2024-04-01T00:00+02:00", "2024-03-31T14:45+02:00"),
        // Ages are instants on the wall clock.
        .instant("7d", "2024-03-20T14:45+01:00"),
        .instant("2w", "2024-03-13T14:45+01:00"),
        .instant("3m", "2023-12-27T14:45+01:00"),
        .instant("1y", "2023-03-27T14:45+02:00"),
        .instant("2 days ago", "2024-03-25T14:45+01:00"),
        .instant("1 day ago", "2024-03-26T14:45+01:00"),
        .instant("a week ago", "2024-03-20T14:45+01:00"),
        .instant("3 weeks ago", "2024-03-06T14:45+01:00"),
        .instant("1 month ago", "2024-02-27T14:45+01:00"),
        .instant("2 Years Ago", "2022-03-27T14:45+02:00"),
        // Calendar spans: a Monday-to-Sunday week, a month, a year.
        .days("last week", "2024-03-18T00:00+01:00", "2024-03-25T00:00+01:00", "2024-03-18T14:45+01:00"),
        .days("this week", "2024-03-25T00:00+01:00", "2024-04-01T00:00+02:00", "2024-03-25T14:45+01:00"),
        .days("next week", "2024-04-01T00:00+02:00", "2024-04-08T00:00+02:00", "2024-04-01T14:45+02:00"),
        .days("last month", "2024-02-01T00:00+01:00", "2024-03-01T00:00+01:00", "2024-02-01T14:45+01:00"),
        .days("this month", "2024-03-01T00:00+01:00", "2024-04-01T00:00+02:00", "2024-03-01T14:45+01:00"),
        .days("last year", "2023-01-01T00:00+01:00", "2024-01-01T00:00+01:00", "2023-01-01T14:45+01:00"),
        .days("this year", "2024-01-01T00:00+01:00", "2025-01-01T00:00+01:00", "2024-01-01T14:45+01:00"),
        // Times of day: alone, today; after a date, on that day. One instant.
        .instant("21:30", "2024-03-27T21:30+01:00"),
        .instant("9:05", "2024-03-27T09:05+01:00"),
        .instant("9pm", "2024-03-27T21:00+01:00"),
        .instant("9:30AM", "2024-03-27T09:30+01:00"),
        .instant("12am", "2024-03-27T00:00+01:00"),
        .instant("12pm", "2024-03-27T12:00+01:00"),
        .instant("noon", "2024-03-27T12:00+01:00"),
        .instant("midnight", "2024-03-27T00:00+01:00"),
        .instant("yesterday 21:30", "2024-03-26T21:30+01:00"),
        .instant("2024-03-01 09:15", "2024-03-01T09:15+01:00"),
        .instant("monday 8am", "2024-03-25T08:00+01:00"),
        .instant("2 days ago 9pm", "2024-03-25T21:00+01:00"),
        .instant("7d 23:59:30", "2024-03-20T23:59:30+01:00"),
        .instant("last friday noon", "2024-03-22T12:00+01:00"),
        .instant("tomorrow midnight", "2024-03-28T00:00+01:00"),
        // `at` may stand between a day and its time, as jrnl writes it.
        .instant("yesterday at 9pm", "2024-03-26T21:00+01:00"),
        .instant("monday at 8am", "2024-03-25T08:00+01:00"),
        .instant("2024-03-01 at 09:15", "2024-03-01T09:15+01:00"),
        .instant("last friday at noon", "2024-03-22T12:00+01:00"),
        .instant("2 days ago at 9pm", "2024-03-25T21:00+01:00"),
        // Summer time starts: 02:00 to 02:59 do not exist on 2024-03-31. Such a time is read with
        // the offset in force before the change, so it lands as far past 03:00 as it was past 02:00.
        .instant("2024-03-31 02:30", "2024-03-31T03:30+02:00"),
        .instant("2024-03-31 03:00", "2024-03-31T03:00+02:00"),
        .instant("2024-03-31 01:59", "2024-03-31T01:59+01:00"),
        .days("2024-03-31", "2024-03-31T00:00+01:00", "2024-04-01T00:00+02:00", "2024-03-31T14:45+02:00"),
        // An age across the change keeps the wall-clock time, and so does a day's moment.
        .instant("2 days ago", "2024-03-31T12:00+02:00", now: afterSpring),
        .instant("2d", "2024-03-31T12:00+02:00", now: afterSpring),
        .instant("3d", "2024-03-30T12:00+01:00", now: afterSpring),
        .instant("sunday 02:30", "2024-03-31T03:30+02:00", now: afterSpring),
        .days(
            "last sunday", "2024-03-31T00:00+01:00", "2024-04-01T00:00+02:00", "2024-03-31T12:00+02:00",
            now: afterSpring),
        // Summer time ends: 02:00 to 02:59 happen twice on 2024-10-27. Such a time is the first
        // of the two, in summer time.
        .instant("2024-10-27 02:30", "2024-10-27T02:30+02:00"),
        .instant("2024-10-27 03:00", "2024-10-27T03:00+01:00"),
        .days("2024-10-27", "2024-10-27T00:00+02:00", "2024-10-28T00:00+01:00", "2024-10-27T14:45+01:00"),
        .days(
            "yesterday", "2024-10-27T00:00+02:00", "2024-10-28T00:00+01:00", "2024-10-27T09:00+01:00", now: afterAutumn),
        .instant("1 day ago", "2024-10-27T09:00+01:00", now: afterAutumn),
        .instant("2 days ago", "2024-10-26T09:00+02:00", now: afterAutumn),
        // During the repeated hour, now is now (its second 02:30), not the first 02:30.
        .instant("0d", "2024-10-27T02:30+01:00", now: inTheRepeatedHour),
        .instant("now", "2024-10-27T02:30+01:00", now: inTheRepeatedHour)
    ]

    /// An error about a resolved date quotes it in the words of the grammar: they read as the
    /// same date again.
    @Test(arguments: rows)
    func everyDateIsQuotedInWordsThatReadAsItAgain(_ row: Row) throws {
        let date = try DateArgument.parse(Word(text: row.typed, isLiteral: true))
        #expect(try DateArgument.parse(Word(text: "\(date)", isLiteral: true)) == date, "\(date)")
    }

    @Test(arguments: rows)
    func everyFormResolvesAgainstTheClock(_ row: Row) throws {
        let berlin = try Self.berlin()
        let date = try DateArgument.parse(Word(text: row.typed, isLiteral: true))
        let now = try Self.instant(row.now)
        #expect(Self.iso(date.start(now: now, in: berlin)) == Self.iso(try Self.instant(row.start)), "start")
        let end = try Self.instant(row.end)
        #expect(
            Self.iso(date.end(now: now, in: berlin))
                == Self.iso(row.end == row.start ? end.adding(milliseconds: 1) : end),
            "end")
        #expect(Self.iso(date.moment(now: now, in: berlin)) == Self.iso(try Self.instant(row.moment)), "moment")
    }

    /// In Santiago summer time starts at midnight (2024-09-08 begins at 01:00): the day starts
    /// at its first instant, not in the evening before.
    @Test func aDayWhoseMidnightIsSkippedStartsAtItsFirstInstant() throws {
        let santiago = DisplayTime(timeZone: try #require(TimeZone(identifier: "America/Santiago")))
        let day = try DateArgument.parse(Word(text: "2024-09-08", isLiteral: true))
        let now = try Self.instant("2024-09-10T12:00-03:00")
        #expect(Self.iso(day.start(now: now, in: santiago)) == Self.iso(try Self.instant("2024-09-08T01:00-03:00")))
        #expect(Self.iso(day.end(now: now, in: santiago)) == Self.iso(try Self.instant("2024-09-09T00:00-03:00")))
    }

    /// `--on` covers whole days: the day of an instant, or every day of a span.
    @Test(arguments: [
        ("2 days ago 9pm", "2024-03-25T00:00+01:00", "2024-03-26T00:00+01:00"),
        ("now", "2024-03-27T00:00+01:00", "2024-03-28T00:00+01:00"),
        ("last friday", "2024-03-22T00:00+01:00", "2024-03-23T00:00+01:00"),
        ("last week", "2024-03-18T00:00+01:00", "2024-03-25T00:00+01:00"),
        ("this month", "2024-03-01T00:00+01:00", "2024-04-01T00:00+02:00")
    ])
    func onCoversWholeDays(_ typed: String, _ since: String, _ before: String) throws {
        let date = try DateArgument.parse(Word(text: typed, isLiteral: true))
        let days = date.wholeDays(now: try Self.instant("2024-03-27T14:45+01:00"), in: try Self.berlin())
        #expect(Self.iso(days.lowerBound) == Self.iso(try Self.instant(since)))
        #expect(Self.iso(days.upperBound) == Self.iso(try Self.instant(before)))
    }

    /// What cannot be read is refused with one line quoting it and naming the forms.
    @Test(arguments: [
        "7x", "2 dayz ago", "last fortnight", "25:00", "13pm", "0am", "9.30pm", "24:00", "now 9pm",
        "2024-03-01T09:30Z 10:00", "last week 9pm", "yesterday tomorrow", "2024-02-30", "2 days", "days ago",
        "ago", "9pm yesterday", "last", "next 3 days", "1 2 days ago", "2 days ago ago", "a day", "this",
        "noon noon", "-2 days ago", "", "at 9pm", "yesterday at", "yesterday at home", "at", "now at 9pm",
        "last week at 9pm", "yesterday at at 9pm", "9pm at yesterday"
    ])
    func unreadableDatesAreOneLineNamingTheForms(_ typed: String) {
        #expect {
            _ = try DateArgument.parse(Word(text: typed, isLiteral: true))
        } throws: { error in
            let message = (error as? CommandError)?.message ?? ""
            return message == "invalid date '\(typed)': use \(DateArgument.forms)" && !message.contains("\n")
        }
    }

    /// A DATE option reads the longest run of words that is a date, at most four, in a line, in
    /// the program's arguments and as one quoted word.
    @Test(arguments: [
        ("list --since 2 days ago -n 3", ["list", "--since", "2", "days", "ago", "-n", "3"]),
        ("list -n 3 --since 2 days ago", ["list", "-n", "3", "--since", "2", "days", "ago"]),
        (#"list --since "2 days ago" -n 3"#, ["list", "--since", "2 days ago", "-n", "3"])
    ])
    func dateOptionsReadSeveralWords(_ line: String, _ arguments: [String]) throws {
        let expected = Command.list(
            ListArguments(filter: FilterArguments(since: .ago(2, .days)), limit: 3))
        guard case .command(let typed) = try CommandParser.parse(line: line) else {
            Issue.record("not a command")
            return
        }
        #expect(typed == expected)
        #expect(try CommandParser.parse(arguments: arguments) == expected)
    }

    @Test func aDateOptionStopsWhereTheDateEnds() throws {
        guard case .command(let command) = try CommandParser.parse(line: "search --until last friday 21:30 heart -n 1")
        else {
            Issue.record("not a command")
            return
        }
        guard case .search(let search) = command else {
            Issue.record("not a search: \(command)")
            return
        }
        #expect(search.list.filter.until == .at(.relativeWeekday(.last, .friday), TimeOfDay(hour: 21, minute: 30)))
        #expect(search.list.limit == 1)
        #expect(
            try CommandParser.parse(arguments: ["count", "--on", "last", "week", "--tag", "work"])
                == .count(FilterArguments(tags: ["work"], on: .period(.last, .week))))
        // With `=`, the value is that one word.
        #expect(
            try CommandParser.parse(arguments: ["count", "--since=yesterday"])
                == .count(FilterArguments(since: .yesterday)))
    }

    /// A text after a date option begins where the date ends (`add --date yesterday 21:30
    /// Called mom`); `--` or `=` keeps a word a date could take in the text.
    @Test(arguments: [
        ("add --date yesterday 21:30 Called mom", "yesterday 21:30", "Called mom"),
        ("add --date 2 days ago 9pm Called mom", "2 days ago 9pm", "Called mom"),
        ("add --date monday 8am 9 people came", "monday 8am", "9 people came"),
        ("add --date yesterday -- noon was hot", "yesterday", "noon was hot"),
        ("add --date=yesterday noon was hot", "yesterday", "noon was hot"),
        ("add Called mom --date last friday noon", "last friday noon", "Called mom"),
        ("add --date yesterday at 9pm Met Bob", "yesterday at 9pm", "Met Bob"),
        ("add --date 2 days ago at 9pm Met Bob", "2 days ago at 9pm", "Met Bob"),
        ("add --date yesterday at home with Bob", "yesterday", "at home with Bob")
    ])
    func aTextBeginsWhereTheDateEnds(_ line: String, _ date: String, _ text: String) throws {
        let syntax = CommandSyntax(
            .add, usage: "[--date WHEN] TEXT", summary: "Add.",
            options: [OptionSyntax(names: ["--date"], valueName: "WHEN", summary: "When.")], takesText: true)
        var lineReader = ArgumentReader(words: LineScanner(String(line.dropFirst(4))), syntax: syntax)
        #expect(try lineReader.text()?.text == text)
        #expect(lineReader.value("--date")?.text == date)
        var argumentReader = ArgumentReader(
            words: ArgumentWords(line.split(separator: " ").dropFirst().map(String.init)), syntax: syntax)
        #expect(try argumentReader.text()?.text == text)
        #expect(argumentReader.value("--date")?.text == date)
    }

    /// When no run of the words is a date, the error quotes them up to the first word no date
    /// could go on with, leaving out what follows, and names the forms.
    @Test(arguments: [
        ("list --since 2 dayz ago -n 3", "2 dayz"),
        ("list --until yesterdy", "yesterdy"),
        ("count --on last fortnight please", "last fortnight")
    ])
    func anUnreadableRunIsQuotedAsTyped(_ line: String, _ quoted: String) {
        #expect {
            _ = try CommandParser.parse(line: line)
        } throws: { error in
            (error as? CommandError)?.message == "invalid date '\(quoted)': use \(DateArgument.forms)"
        }
    }

    @Test func scriptsSetTheClockToANaturalDate() throws {
        guard case .command(let command) = try CommandParser.parse(line: "clock yesterday 21:30") else {
            Issue.record("not a command")
            return
        }
        #expect(command == .clock(.at(.yesterday, TimeOfDay(hour: 21, minute: 30))))
    }

    /// After a DATE option, or `clock`, completion offers the words a date starts with.
    @Test(arguments: [
        (
            "list --since ",
            [
                "now", "today", "yesterday", "tomorrow", "last", "this", "next", "monday", "tuesday", "wednesday",
                "thursday", "friday", "saturday", "sunday", "noon", "midnight"
            ]
        ),
        ("list --since ye", ["yesterday"]),
        ("clock t", ["today", "tomorrow", "this", "tuesday", "thursday"]),
        ("count --on next w", ["wednesday", "week"]),
        (
            "search --until last ",
            ["monday", "tuesday", "wednesday", "thursday", "friday", "saturday", "sunday", "week", "month", "year"]
        ),
        ("list --tag last ", []),
        ("add last ", [])
    ])
    func dateOptionsCompleteDateWords(_ line: String, _ expected: [String]) {
        #expect(Completer.withoutStore.complete(line).items.map(\.text) == expected)
    }

    private static func berlin() throws -> DisplayTime {
        DisplayTime(timeZone: try #require(TimeZone(identifier: "Europe/Berlin")))
    }

    private static func instant(_ text: String) throws -> Timestamp {
        guard case .instant(let instant) = try DateArgument.parse(Word(text: text, isLiteral: true)) else {
            throw CommandError.invalid("not an instant: \(text)")
        }
        return instant
    }

    private static func iso(_ instant: Timestamp) -> String {
        DisplayTime.iso8601(instant)
    }
}
