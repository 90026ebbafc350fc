import Foundation
import MemoStore
import Synchronization
import Testing

@testable import MemoNotebook

@Suite("Dates")
struct DateTests {
    private func parse(_ text: String) throws -> DateArgument {
        try DateArgument.parse(Word(text: text, isLiteral: false))
    }

    @Test(arguments: [
        ("2024-03-01", DateArgument.day(CivilDate(year: 2024, month: 3, day: 1))),
        ("2000-01-01T00:00Z", .instant(Timestamp(secondsSince1970: 946_684_800))),
        ("2000-01-01T09:30:15.250+09:00", .instant(Timestamp(millisecondsSince1970: 946_684_800_000 + 1_815_250))),
        ("1969-12-31T23:59:59-00:30", .instant(Timestamp(secondsSince1970: 1_799))),
        ("2024-01-01T10:00:59.9Z", .instant(Timestamp(millisecondsSince1970: 1_704_103_259_900))),
        ("2024-01-01T10:00:59.25Z", .instant(Timestamp(millisecondsSince1970: 1_704_103_259_250))),
        ("2024-01-01T10:00:59.123456Z", .instant(Timestamp(millisecondsSince1970: 1_704_103_259_123))),
        ("Today", .today),
        ("yesterday", .yesterday),
        ("NOW", .now),
        ("monday", .weekday(.monday)),
        ("Sun", .weekday(.sunday)),
        ("7d", .ago(7, .days)),
        ("0d", .ago(0, .days)),
        ("2w", .ago(2, .weeks)),
        ("3M", .ago(3, .months)),
        ("1y", .ago(1, .years))
    ])
    func acceptedForms(_ text: String, _ expected: DateArgument) throws {
        #expect(try parse(text) == expected)
    }

    @Test(arguments: [
        "2024-13-01", "2023-02-29", "24-01-01", "2024-01-01T25:00Z", "2024-01-01T10:00", "2024-01-01 10:00Z", "soon",
        "2024-01-01T10:00:00.Z", "2024-01-01T10:00:00.1x", "d", "-7d", "7", "7h", "+7d", "7 d", "mondays", "mo",
        "99999999999999999999d", "10001y", "٣d"
    ])
    func rejectedForms(_ text: String) {
        #expect(throws: CommandError.self) { try parse(text) }
    }

    @Test func formatsInTheDisplayTimeZone() throws {
        let tokyo = DisplayTime(timeZone: try #require(TimeZone(identifier: "Asia/Tokyo")))
        let instant = Timestamp(millisecondsSince1970: 946_684_800_007)
        #expect(tokyo.format(instant) == "2000-01-01 09:00:00")
        #expect(DisplayTime.utc.format(instant) == "2000-01-01 00:00:00")
        #expect(DisplayTime.iso8601(instant) == "2000-01-01T00:00:00.007Z")
        #expect(DisplayTime.iso8601(Timestamp(millisecondsSince1970: -1)) == "1969-12-31T23:59:59.999Z")
    }

    /// A store another program wrote may hold any 64-bit number as a date: it is shown as the
    /// nearest instant in years 0001 to 9999, never overflowing on the way.
    @Test func datesOutsideTheRepresentableYearsAreShownAtTheirNearestEnd() throws {
        let tokyo = DisplayTime(timeZone: try #require(TimeZone(identifier: "Asia/Tokyo")))
        #expect(DisplayTime.utc.format(Timestamp(millisecondsSince1970: .max)) == "9999-12-31 23:59:59")
        #expect(tokyo.format(Timestamp(millisecondsSince1970: .max)) == "10000-01-01 08:59:59")
        #expect(DisplayTime.iso8601(Timestamp(millisecondsSince1970: .max)) == "9999-12-31T23:59:59.999Z")
        // Tokyo's local mean time, before time zones.
        #expect(tokyo.format(Timestamp(millisecondsSince1970: .min)) == "0001-01-01 09:18:59")
        #expect(DisplayTime.iso8601(Timestamp(millisecondsSince1970: .min)) == "0001-01-01T00:00:00.000Z")
    }

    @Test func aBareDayIsThatDayInTheDisplayTimeZone() throws {
        let newYork = DisplayTime(timeZone: try #require(TimeZone(identifier: "America/New_York")))
        let day = DateArgument.day(CivilDate(year: 2024, month: 3, day: 10))
        let now = Timestamp(secondsSince1970: 0)
        // 2024-03-10 is the day daylight saving time starts in New York: 23 hours long.
        #expect(DisplayTime.iso8601(day.start(now: now, in: newYork)) == "2024-03-10T05:00:00.000Z")
        #expect(DisplayTime.iso8601(day.end(now: now, in: newYork)) == "2024-03-11T04:00:00.000Z")
    }

    @Test func todayAndYesterdayFollowTheClock() {
        let now = Timestamp(millisecondsSince1970: 946_771_200_000 + 3_600_000)
        #expect(DateArgument.today.day(now: now, in: .utc) == CivilDate(year: 2000, month: 1, day: 2))
        #expect(DateArgument.yesterday.day(now: now, in: .utc) == CivilDate(year: 2000, month: 1, day: 1))
    }

    /// 2024-03-06 is a Wednesday; ages keep the time of day, months clamp to the month's end.
    @Test func weekdaysAndAgesResolveAgainstTheClock() throws {
        let now = try #require(instant("2024-03-06T15:30:00Z"))
        func day(_ text: String) throws -> String {
            let date = try parse(text).day(now: now, in: .utc)
            return "\(date.year)-\(date.month)-\(date.day)"
        }
        #expect(try day("wednesday") == "2024-3-6")
        #expect(try day("tuesday") == "2024-3-5")
        #expect(try day("thursday") == "2024-2-29")
        #expect(DisplayTime.iso8601(try parse("monday").start(now: now, in: .utc)) == "2024-03-04T00:00:00.000Z")
        #expect(DisplayTime.iso8601(try parse("now").start(now: now, in: .utc)) == "2024-03-06T15:30:00.000Z")
        #expect(DisplayTime.iso8601(try parse("7d").start(now: now, in: .utc)) == "2024-02-28T15:30:00.000Z")
        #expect(DisplayTime.iso8601(try parse("2w").start(now: now, in: .utc)) == "2024-02-21T15:30:00.000Z")
        #expect(DisplayTime.iso8601(try parse("1y").start(now: now, in: .utc)) == "2023-03-06T15:30:00.000Z")
        let endOfMarch = try #require(instant("2024-03-31T08:00:00Z"))
        #expect(DisplayTime.iso8601(try parse("1m").start(now: endOfMarch, in: .utc)) == "2024-02-29T08:00:00.000Z")
        #expect(DisplayTime.iso8601(try parse("13m").start(now: endOfMarch, in: .utc)) == "2023-02-28T08:00:00.000Z")
        // An age is one instant: `--until 7d` ends just after it, `--on 7d` is its whole day.
        #expect(DisplayTime.iso8601(try parse("7d").end(now: now, in: .utc)) == "2024-02-28T15:30:00.001Z")
        #expect(try day("7d") == "2024-2-28")
    }

    /// Weekdays and ages count on the display time zone's wall clock.
    @Test func weekdaysAndAgesUseTheDisplayTimeZone() throws {
        let tokyo = DisplayTime(timeZone: try #require(TimeZone(identifier: "Asia/Tokyo")))
        // Tuesday 20:00 UTC is already Wednesday in Tokyo.
        let now = try #require(instant("2024-03-05T20:00:00Z"))
        #expect(DisplayTime.iso8601(try parse("wednesday").start(now: now, in: tokyo)) == "2024-03-05T15:00:00.000Z")
        #expect(DisplayTime.iso8601(try parse("1d").start(now: now, in: tokyo)) == "2024-03-04T20:00:00.000Z")
    }

    private func instant(_ text: String) -> Timestamp? {
        guard case .instant(let instant)? = try? parse(text) else { return nil }
        return instant
    }

    @Test func instantsAreInclusiveUntilBounds() throws {
        let instant = try parse("2000-01-01T00:00:05Z")
        #expect(instant.end(now: Timestamp(secondsSince1970: 0), in: .utc).millisecondsSince1970 == 946_684_805_001)
    }

    /// The system zone's offsets are looked up once an hour of instants, yet every instant
    /// gets its own offset, on both sides of a change within a UTC hour: Adelaide goes from
    /// +9:30 to +10:30 at 16:30 UTC on 2026-10-03.
    @Test func anHoursOffsetIsLookedUpOnceAndAChangeWithinTheHourStillCounts() throws {
        let adelaide = DisplayTime(timeZone: try #require(TimeZone(identifier: "Australia/Adelaide")))
        final class Count: Sendable { let value = Atomic<Int>(0) }
        let lookups = Count()
        let cached = DisplayTime(
            offsetAt: DisplayTime.onceAnHour { seconds in
                lookups.value.add(1, ordering: .relaxed)
                return adelaide.utcOffsetSeconds(at: seconds)
            })
        let start: Int64 = 1_791_039_600 // 2026-10-03T15:00Z
        var wrong: [Int64] = []
        for second in stride(from: start, to: start + 3 * 3600, by: 30)
        where cached.utcOffsetSeconds(at: second) != adelaide.utcOffsetSeconds(at: second) {
            wrong.append(second)
        }
        for second in stride(from: Int64(-3 * 3600), to: 3600, by: 600) // before 1970 too
        where cached.utcOffsetSeconds(at: second) != adelaide.utcOffsetSeconds(at: second) {
            wrong.append(second)
        }
        #expect(wrong.isEmpty, "\(wrong.prefix(5))")
        lookups.value.store(0, ordering: .relaxed)
        for second in stride(from: start, to: start + 3600, by: 1) { _ = cached.utcOffsetSeconds(at: second) }
        #expect(lookups.value.load(ordering: .relaxed) <= 2)
    }
}
