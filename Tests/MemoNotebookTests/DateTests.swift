import Foundation
import MemoStore
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
    ])
    func acceptedForms(_ text: String, _ expected: DateArgument) throws {
        #expect(try parse(text) == expected)
    }

    @Test(arguments: ["2024-13-01", "2023-02-29", "24-01-01", "2024-01-01T25:00Z", "2024-01-01T10:00", "2024-01-01 10:00Z", "soon", "2024-01-01T10:00:00.Z", "2024-01-01T10:00:00.1x"])
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

    @Test func instantsAreInclusiveUntilBounds() throws {
        let instant = try parse("2000-01-01T00:00:05Z")
        #expect(instant.end(now: Timestamp(secondsSince1970: 0), in: .utc).millisecondsSince1970 == 946_684_805_001)
    }
}
