import MemoModel
import Testing

@testable import MemoStore

/// The store's side of `calendar` and `stats`: memos counted by local hour inside SQLite.
@Suite("Activity reader")
struct ActivityReaderTests {
    let store: MemoStore

    init() throws {
        store = try MemoStore.open(.memory)
    }

    @Test func countsMemosAndWordsByLocalHourAcrossAnOffsetChange() throws {
        try store.insert(draft("one two three", at: 0, number: 1)) // 2000-01-01 00:00Z
        try store.insert(draft("four", at: 60, number: 2)) // 00:01Z, same hour
        try store.insert(draft("five\tsix\nseven", at: 7200, number: 3)) // 02:00Z
        // +1 hour until 01:00Z, then +2 hours.
        let offsets = [
            UTCOffsetChange(start: Timestamp(secondsSince1970: 946_684_800), offsetSeconds: 3600),
            UTCOffsetChange(start: Timestamp(secondsSince1970: 946_684_800 + 3600), offsetSeconds: 7200)
        ]
        let hours = try store.hourlyActivity(MemoFilter(), offsets: offsets, countingWords: true)
        let firstHour = Int64(946_684_800 / 3600)
        #expect(
            hours == [
                HourActivity(localHour: firstHour + 1, memos: 2, words: 4),
                HourActivity(localHour: firstHour + 4, memos: 1, words: 3)
            ])
        let withoutWords = try store.hourlyActivity(MemoFilter(), offsets: offsets, countingWords: false)
        #expect(withoutWords.map(\.words) == [0, 0])
        #expect(try store.hourlyActivity(MemoFilter(tags: ["none"]), offsets: offsets, countingWords: true) == [])
    }

    @Test func wordsAreRunsBetweenWhiteSpace() throws {
        try store.insert(draft("a  b\tc\nd\u{00A0}e\u{3000}f\u{2003}g", number: 1))
        try store.insert(draft("京都旅行 に行く 🎉", number: 2))
        let hours = try store.hourlyActivity(MemoFilter(), offsets: [], countingWords: true)
        #expect(hours.map(\.words) == [7 + 3])
    }

    @Test func spanAndMostUsedTagsFollowTheFilter() throws {
        try store.insert(draft("a", at: 10, tags: ["work", "home"], number: 1))
        try store.insert(draft("b", at: 20, tags: ["work"], number: 2))
        try store.insert(draft("c", at: 30, tags: ["idea"], number: 3))
        #expect(try store.mostUsedTags(MemoFilter(), limit: 2).map(\.name) == ["work", "home"])
        #expect(
            try store.mostUsedTags(MemoFilter(since: draft("", at: 15).insertDate), limit: 10).map(\.name)
                == ["idea", "work"])
        let span = try #require(try store.insertDateSpan(MemoFilter(tags: ["work"])))
        #expect(span == draft("", at: 10).insertDate...draft("", at: 20).insertDate)
        #expect(try store.insertDateSpan(MemoFilter(tags: ["none"])) == nil)
    }

    /// A year's calendar reads the insert-date index's range, not the whole table.
    @Test func aYearReadsTheInsertDateIndexRange() throws {
        let filter = MemoFilter(since: Timestamp(secondsSince1970: 0), before: Timestamp(secondsSince1970: 86_400))
        let (sql, values) = ActivityReader.activityStatement(filter, offsets: [], countingWords: false)
        let plan = try store.database.prepare("EXPLAIN QUERY PLAN " + sql)
        try plan.bind(values)
        var details: [String] = []
        while try plan.step() { details.append(plan.string(at: 3)) }
        #expect(
            details.contains { $0.contains("COVERING INDEX memo_by_insert_date (insert_date>? AND insert_date<?)") })
        #expect(!details.contains { $0.contains("TEMP B-TREE") })
    }
}

/// The word rule, eight ASCII bytes at a time where it can: the same count as a byte-by-byte
/// reading of runs between white space, for texts of every length and mix.
@Suite("Word count")
struct WordCountTests {
    private static func reference(_ text: String) -> Int {
        text.unicodeScalars.split(whereSeparator: \.properties.isWhitespace).count
    }

    private static func counted(_ text: String) -> Int {
        var text = text
        return text.withUTF8 { WordCount.words(in: $0) }
    }

    @Test func countsRunsBetweenWhiteSpaceAsWcDoes() {
        let pieces = [
            "a", "bb", " ", "  ", "\t", "\n", "\r\n", "\u{0B}", "\u{0C}", "\u{08}", "\u{0E}", "\u{1F}", "!", "~",
            "\u{7F}", "é", "京都", "\u{00A0}", "\u{3000}", "\u{2003}", "\u{2028}", "\u{205F}", "\u{1680}", "\u{0085}",
            "🎉", "x\u{0301}", "word"
        ]
        var generator = SystemRandomNumberGenerator()
        for length in 0..<40 {
            for _ in 0..<50 {
                let text = (0..<length).map { _ in pieces.randomElement(using: &generator)! }.joined()
                #expect(Self.counted(text) == Self.reference(text), "\(Array(text.unicodeScalars))")
            }
        }
        #expect(Self.counted("buy milk eggs coffee call mother about the trip") == 9)
        #expect(Self.counted("        twelve  bytes") == 2)
    }
}
