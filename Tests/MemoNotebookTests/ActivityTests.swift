import Foundation
import MemoStore
import Synchronization
import Testing

@testable import MemoNotebook

/// `calendar` and `stats`: days, streaks and busiest times on the display time zone's
/// calendar, and how they are drawn (docs/REFERENCE.md, Calendar and Stats).
@Suite("Calendar and stats")
struct ActivityTests {
    /// A scripted session in `zone` (a script's clock and uuids) that adds memos at given instants.
    struct Session {
        let notebook: Notebook
        let displayTime: DisplayTime

        init(zone: String = "UTC") throws {
            try self.init(displayTime: DisplayTime(timeZone: try #require(TimeZone(identifier: zone))))
        }

        init(displayTime: DisplayTime) throws {
            self.displayTime = displayTime
            notebook = Notebook(
                store: try MemoStore.open(.memory), clock: DeterministicClock(), uuids: SequentialUUIDs(),
                displayTime: displayTime)
        }

        /// Adds `text` at the instant `iso` (an ISO 8601 instant with its offset).
        func add(_ text: String, at iso: String) throws {
            try run("clock \(iso)")
            try run("add \(text)")
        }

        @discardableResult
        func run(_ line: String, color: Bool = false) throws -> String {
            guard case .command(let command) = try CommandParser.parse(line: line) else { return "" }
            let output = StringOutput()
            try TextRenderer(style: TextStyle(width: nil, color: color, displayTime: displayTime)).render(
                try notebook.execute(command), to: output)
            return output.text
        }

        func json(_ line: String) throws -> [String: Any] {
            guard case .command(let command) = try CommandParser.parse(line: line) else { return [:] }
            let output = StringOutput()
            try JSONRenderer().render(try notebook.execute(command), to: output)
            return try #require(
                try JSONSerialization.jsonObject(with: Data(output.text.utf8)) as? [String: Any])
        }

        /// `calendar`'s days with memos, as `date: count`.
        func calendarDays(_ arguments: String) throws -> [String: Int] {
            let days = try #require(try json("calendar " + arguments)["days"] as? [[String: Any]])
            return Dictionary(
                uniqueKeysWithValues: days.map { ($0["date"] as? String ?? "", $0["count"] as? Int ?? -1) })
        }
    }

    /// Berlin changes to summer time on 2026-03-29 (02:00 → 03:00) and back on 2026-10-25
    /// (03:00 → 02:00): each memo is counted on its local day, whatever offset held at the
    /// start of the year or of that day.
    @Test func memosLandOnTheirLocalDayAcrossDaylightSavingChanges() throws {
        let berlin = try Session(zone: "Europe/Berlin")
        try berlin.add("before the spring change", at: "2026-03-29T01:30+01:00")
        try berlin.add("late on the short day", at: "2026-03-29T23:30+02:00")
        try berlin.add("just after midnight in summer", at: "2026-07-02T00:30+02:00")
        try berlin.add("first two thirty", at: "2026-10-25T02:30+02:00")
        try berlin.add("second two thirty", at: "2026-10-25T02:30+01:00")
        try berlin.add("late on the long day", at: "2026-10-25T23:30+01:00")
        #expect(
            try berlin.calendarDays("--year 2026") == ["2026-03-29": 2, "2026-07-02": 1, "2026-10-25": 3])
        let stats = try berlin.json("stats")
        let hours = try #require(stats["hours"] as? [Int])
        #expect(hours[2] == 2 && hours[23] == 2 && hours[1] == 1 && hours[0] == 1)
        #expect(stats["busiestHour"] as? Int == 2)
        #expect(stats["busiestWeekday"] as? String == "sunday")
    }

    @Test func aYearEndsAtLocalMidnight() throws {
        let newYork = try Session(zone: "America/New_York")
        try newYork.add("last evening of 2025", at: "2025-12-31T23:30-05:00")
        try newYork.add("first minutes of 2026", at: "2026-01-01T00:30-05:00")
        try newYork.add("last minutes of 2026", at: "2026-12-31T23:59-05:00")
        #expect(try newYork.calendarDays("--year 2025") == ["2025-12-31": 1])
        #expect(try newYork.calendarDays("--year 2026") == ["2026-01-01": 1, "2026-12-31": 1])
        #expect(try newYork.calendarDays("--year 2027") == [:])
    }

    @Test func filtersNarrowTheMemosCounted() throws {
        let session = try Session()
        try session.add("plain", at: "2026-05-01T10:00Z")
        try session.add("tagged @work", at: "2026-05-01T11:00Z")
        try session.add("tagged later @work", at: "2026-06-01T11:00Z")
        #expect(try session.calendarDays("--year 2026 --tag work") == ["2026-05-01": 1, "2026-06-01": 1])
        #expect(try session.calendarDays("--year 2026 --since 2026-05-15") == ["2026-06-01": 1])
        #expect(try session.calendarDays("--year 2026 --until 2025-12-31") == [:])
        let stats = try session.json("stats --tag work")
        #expect(stats["memos"] as? Int == 2)
        #expect(stats["words"] as? Int == 5)
        #expect((stats["tags"] as? [[String: Any]])?.map { $0["name"] as? String } == ["work"])
    }

    /// The current streak ends today, or yesterday while today has no memo; the longest is
    /// the latest of the longest.
    @Test func streaksCountDaysInARow() throws {
        let session = try Session()
        for day in ["2026-03-01", "2026-03-02", "2026-03-03", "2026-03-05", "2026-03-06", "2026-03-09", "2026-03-10"] {
            try session.add("a memo", at: day + "T09:00Z")
        }
        func streaks(today: String) throws -> (longest: [String: Any]?, current: [String: Any]?) {
            try session.run("clock \(today)T12:00Z")
            let stats = try session.json("stats")
            return (stats["longestStreak"] as? [String: Any], stats["currentStreak"] as? [String: Any])
        }
        var (longest, current) = try streaks(today: "2026-03-10")
        #expect(longest?["days"] as? Int == 3 && longest?["from"] as? String == "2026-03-01")
        #expect(current?["days"] as? Int == 2 && current?["from"] as? String == "2026-03-09")
        (_, current) = try streaks(today: "2026-03-11")
        #expect(current?["days"] as? Int == 2 && current?["to"] as? String == "2026-03-10")
        (_, current) = try streaks(today: "2026-03-12")
        #expect(current == nil)
        (_, current) = try streaks(today: "2026-03-06")
        #expect(current?["days"] as? Int == 2 && current?["to"] as? String == "2026-03-06")
        let text = try session.run("stats")
        #expect(text.contains("longest streak   3 days (2026-03-01 to 2026-03-03)\n"))
        #expect(text.contains("current streak   2 days (2026-03-05 to 2026-03-06)\n"))
    }

    @Test func busiestWeekdayAndHourAreTheFirstOfEquals() throws {
        let session = try Session(zone: "Asia/Tokyo")
        try session.add("a tuesday", at: "2026-03-03T08:15+09:00")
        try session.add("a tuesday", at: "2026-03-10T08:45+09:00")
        try session.add("a friday", at: "2026-03-06T21:00+09:00")
        try session.add("a friday", at: "2026-03-13T21:00+09:00")
        let stats = try session.json("stats")
        #expect(stats["weekdays"] as? [Int] == [0, 2, 0, 0, 2, 0, 0])
        #expect(stats["busiestWeekday"] as? String == "tuesday")
        #expect(stats["busiestHour"] as? Int == 8)
        let text = try session.run("stats")
        #expect(text.contains("busiest weekday  Tuesday (2 memos)\n"))
        #expect(text.contains("busiest hour     08:00 (2 memos)\n"))
    }

    @Test func statsOfNoMemos() throws {
        let stats = try Session().json("stats")
        #expect(stats["memos"] as? Int == 0)
        #expect(stats["firstDay"] is NSNull && stats["longestStreak"] is NSNull && stats["busiestHour"] is NSNull)
        #expect(try Session().run("stats").hasPrefix("memos            0\nwords            0\ndays             0\n"))
    }

    /// 2012 began on a Sunday and had 366 days: 54 week columns, the most a year takes.
    @Test func theWidestYearFits80Columns() throws {
        let session = try Session()
        try session.add("new year", at: "2012-01-01T10:00Z")
        try session.add("new year's eve", at: "2012-12-31T10:00Z")
        let lines = try session.run("calendar --year 2012").split(separator: "\n", omittingEmptySubsequences: false)
        #expect(lines.allSatisfy { $0.count <= 80 })
        #expect(lines[0].hasPrefix("    Jan  Feb"))
        #expect(lines[0].hasSuffix("Dec"))
        // Rows Mon…Sun: January 1st is the Sunday of the first column, December 31st the
        // Monday of the 54th.
        #expect(lines[7] == "Sun ░" + String(repeating: "·", count: 52))
        #expect(lines[1] == "Mon  " + String(repeating: "·", count: 52) + "░")
        #expect(lines[1].count == 4 + 54)
        #expect(lines[8] == "    · 0  ░ 1")
        #expect(lines[9] == "    2012: 2 memos on 2 days")
    }

    /// Shades by the quartiles of the busy days: one to four memos on four days take the
    /// four levels; colour wraps each glyph in its escape, and only on a colour terminal.
    @Test func daysAreShadedByQuartileWithOrWithoutColour() throws {
        let session = try Session()
        for (day, count) in [("05", 1), ("06", 2), ("07", 3), ("08", 4)] {
            for _ in 0..<count { try session.add("memo", at: "2026-01-\(day)T09:00Z") }
        }
        let plain = try session.run("calendar --year 2026")
        let lines = plain.split(separator: "\n")
        // 2026-01-05 is a Monday, in the second column; the first column's Monday to
        // Wednesday are in 2025, left blank.
        #expect(lines[1].hasPrefix("Mon  ░·"))
        #expect(lines[2].hasPrefix("Tue  ▒·"))
        #expect(lines[3].hasPrefix("Wed  ▓·"))
        #expect(lines[4].hasPrefix("Thu ·█·"))
        #expect(lines[8] == "    · 0  ░ 1  ▒ 2  ▓ 3  █ 4")
        #expect(!plain.contains("\u{1B}"))
        let coloured = try session.run("calendar --year 2026", color: true)
        #expect(coloured.contains("\u{1B}[1;92m█\u{1B}[0m"))
        #expect(coloured.contains("\u{1B}[2;32m░\u{1B}[0m"))
        #expect(coloured.contains("\u{1B}[2m·\u{1B}[0m"))
        let json = try session.json("calendar --year 2026")
        #expect(json["total"] as? Int == 10 && json["daysWithMemos"] as? Int == 4)
        #expect(
            (json["levels"] as? [[String: Int]])?.map { [$0["level"], $0["from"], $0["to"]] }
                == [[1, 1, 1], [2, 2, 2], [3, 3, 3], [4, 4, 4]])
    }

    @Test func theJSONShapes() throws {
        let session = try Session()
        try session.add("one @work", at: "2026-02-03T09:00Z")
        try session.run("clock 2026-02-03T12:00Z")
        let output = StringOutput()
        guard case .command(let calendar) = try CommandParser.parse(line: "calendar") else { return }
        try JSONRenderer().render(try session.notebook.execute(calendar), to: output)
        #expect(
            output.take()
                == #"{"year":2026,"total":1,"daysWithMemos":1,"levels":[{"level":1,"from":1,"to":1}],"days":[{"date":"2026-02-03","count":1}]}"#
                + "\n")
        guard case .command(let stats) = try CommandParser.parse(line: "stats") else { return }
        try JSONRenderer().render(try session.notebook.execute(stats), to: output)
        let hours = (0..<24).map { $0 == 9 ? "1" : "0" }.joined(separator: ",")
        #expect(
            output.take()
                == #"{"memos":1,"words":2,"days":1,"firstDay":"2026-02-03","lastDay":"2026-02-03","#
                + #""months":[{"month":"2026-02","memos":1,"words":2}],"tags":[{"name":"work","count":1}],"#
                + #""longestStreak":{"days":1,"from":"2026-02-03","to":"2026-02-03"},"#
                + #""currentStreak":{"days":1,"from":"2026-02-03","to":"2026-02-03"},"#
                + #""busiestWeekday":"tuesday","busiestHour":9,"weekdays":[0,1,0,0,0,0,0],"hours":[\#(hours)]}"#
                + "\n")
    }

    /// Two memos eight thousand years apart: `stats` lists the two months that hold them,
    /// not the 119,988 between, and looks up the zone's offsets around them only (once a day
    /// over the span would be 2.9 million lookups).
    @Test func statsGrowsWithTheMemosNotWithTheirSpan() throws {
        let berlin = DisplayTime(timeZone: try #require(TimeZone(identifier: "Europe/Berlin")))
        final class Count: Sendable { let value = Atomic<Int>(0) }
        let lookups = Count()
        let session = try Session(
            displayTime: DisplayTime { seconds in
                lookups.value.add(1, ordering: .relaxed)
                return berlin.utcOffsetSeconds(at: seconds)
            })
        try session.add("the first day", at: "0001-06-01T12:00Z")
        try session.add("the last year", at: "9999-06-01T12:00Z")
        try session.add("the same month", at: "9999-06-20T12:00Z")
        lookups.value.store(0, ordering: .relaxed)
        let stats = try session.json("stats")
        #expect(lookups.value.load(ordering: .relaxed) < 10_000)
        #expect(
            (stats["months"] as? [[String: Any]])?.map { "\($0["month"] ?? "") \($0["memos"] ?? "")" }
                == ["0001-06 1", "9999-06 2"])
        let text = try session.run("stats")
        #expect(text.hasSuffix("\nmonth    memos  words\n0001-06      1      3\n9999-06      2      6\n"))
    }

    /// Over a span of more than twenty years the offsets are looked up in the memos' hours
    /// only, and still put each memo in its local day and hour, even when the offset changes
    /// within a UTC hour: Adelaide goes from +9:30 to +10:30 at 16:30 UTC on 2026-10-03, so a
    /// memo at 16:45 UTC is at 03:15 local on October 4th (02:15 by the offset at 16:00).
    @Test func overALongSpanEachMemoStillLandsOnItsLocalDayAndHour() throws {
        let adelaide = try Session(zone: "Australia/Adelaide")
        try adelaide.add("decades earlier", at: "1950-01-01T00:00Z")
        try adelaide.add("as summer time begins", at: "2026-10-03T16:45Z")
        #expect(try adelaide.calendarDays("--year 2026") == ["2026-10-04": 1])
        let stats = try adelaide.json("stats")
        #expect(stats["firstDay"] as? String == "1950-01-01" && stats["lastDay"] as? String == "2026-10-04")
        #expect(
            (stats["months"] as? [[String: Any]])?.map { "\($0["month"] ?? "") \($0["memos"] ?? "")" }
                == ["1950-01 1", "2026-10 1"])
        let hours = try #require(stats["hours"] as? [Int])
        #expect(hours[9] == 1 && hours[3] == 1 && hours.reduce(0, +) == 2)
    }

    /// A memo at the last second of 9999 (UTC) is on January 1st, 10000 in Berlin, and one at
    /// the first second of year 1 on December 31st, year 0 in New York: `calendar` draws
    /// those years, and `stats` puts the memos on the same days and months.
    @Test func memosAtTheEndsOfTimeAreOnTheSameLocalDayInBothCommands() throws {
        let berlin = try Session(zone: "Europe/Berlin")
        try berlin.add("the very last", at: "9999-12-31T23:59:59Z")
        #expect(try berlin.calendarDays("--year 10000") == ["10000-01-01": 1])
        #expect(try berlin.calendarDays("--year 9999") == [:])
        #expect(try berlin.run("calendar --year 10000").hasSuffix("    10000: 1 memo on 1 day\n"))
        var stats = try berlin.json("stats")
        #expect(stats["lastDay"] as? String == "10000-01-01")
        #expect((stats["months"] as? [[String: Any]])?.map { $0["month"] as? String } == ["10000-01"])
        let newYork = try Session(zone: "America/New_York")
        try newYork.add("the very first", at: "0001-01-01T00:00Z")
        #expect(try newYork.calendarDays("--year 0") == ["0000-12-31": 1])
        #expect(try newYork.calendarDays("--year 1") == [:])
        stats = try newYork.json("stats")
        #expect(stats["firstDay"] as? String == "0000-12-31")
        #expect((stats["months"] as? [[String: Any]])?.map { $0["month"] as? String } == ["0000-12"])
    }

    /// A word is a run between any of Unicode's White_Space characters, U+0085, U+2028 and
    /// U+2029 included (where GNU `wc -w` does not split); a zero-width space (U+200B) is not
    /// white space.
    @Test func wordsAreRunsBetweenUnicodeWhiteSpace() throws {
        let session = try Session()
        let whiteSpace: [Unicode.Scalar] = [
            "\u{20}", "\u{85}", "\u{A0}", "\u{1680}", "\u{2000}", "\u{2001}", "\u{2002}", "\u{2003}", "\u{2004}",
            "\u{2005}", "\u{2006}", "\u{2007}", "\u{2008}", "\u{2009}", "\u{200A}", "\u{2028}", "\u{2029}",
            "\u{202F}", "\u{205F}", "\u{3000}"
        ]
        #expect(whiteSpace.allSatisfy { $0.properties.isWhitespace })
        let text = whiteSpace.map { "w" + String(Character($0)) }.joined() + "last zero\u{200B}width"
        try session.add(text, at: "2026-05-01T10:00Z")
        #expect(try session.json("stats")["words"] as? Int == whiteSpace.count + 2)
    }

    @Test func aYearOutOfRangeIsRefused() {
        #expect(throws: CommandError.self) { try CommandParser.parse(line: "calendar --year -1") }
        #expect(throws: CommandError.self) { try CommandParser.parse(line: "calendar --year 10001") }
        #expect(throws: CommandError.self) { try CommandParser.parse(line: "calendar --year 2026x") }
        #expect(throws: CommandError.self) { try CommandParser.parse(line: "stats 3") }
    }
}
