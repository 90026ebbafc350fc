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

    /// The query plan of the activity statement over `filter`.
    private func plan(_ filter: MemoFilter, countingWords: Bool) throws -> [String] {
        let (sql, values) = ActivityReader.activityStatement(filter, offsets: [], countingWords: countingWords)
        let plan = try store.database.prepare("EXPLAIN QUERY PLAN " + sql)
        try plan.bind(values)
        var details: [String] = []
        while try plan.step() { details.append(plan.string(at: 3)) }
        return details
    }

    /// A year's calendar, or its stats, reads the insert-date index's range, not the whole table.
    @Test(arguments: [false, true])
    func aYearReadsTheInsertDateIndexRange(countingWords: Bool) throws {
        let filter = MemoFilter(since: Timestamp(secondsSince1970: 0), before: Timestamp(secondsSince1970: 86_400))
        let details = try plan(filter, countingWords: countingWords)
        #expect(
            details == ["SEARCH memo USING COVERING INDEX memo_by_insert_date (insert_date>? AND insert_date<?)"])
    }

    /// `stats` over every memo sums the word counts the insert-date index holds: it never
    /// reads a text (the whole table, most of the store).
    @Test func wordsOfEveryMemoAreReadFromTheInsertDateIndex() throws {
        #expect(try plan(MemoFilter(), countingWords: true) == ["SCAN memo USING COVERING INDEX memo_by_insert_date"])
    }

    /// The query plan of the span statement over `filter`.
    private func spanPlan(_ filter: MemoFilter) throws -> [String] {
        let (sql, values) = ActivityReader.insertDateSpanStatement(filter)
        let plan = try store.database.prepare("EXPLAIN QUERY PLAN " + sql)
        try plan.bind(values)
        var details: [String] = []
        while try plan.step() { details.append(plan.string(at: 3)) }
        return details
    }

    /// The span of every memo's insert dates, or of a range of them, reads the two ends of the
    /// insert-date index, not the whole index (a `min` and a `max` in one select made SQLite
    /// scan it); a span of tagged memos reads them once.
    @Test func theSpanOfDatesReadsTheEndsOfTheInsertDateIndex() throws {
        for filter in [MemoFilter(), MemoFilter(since: Timestamp(secondsSince1970: 0))] {
            let details = try spanPlan(filter)
            #expect(details.filter { $0.contains("memo_by_insert_date") }.count == 2, "\(details)")
            #expect(!details.contains { $0.hasPrefix("SCAN memo") }, "\(details)")
        }
        let tagged = try spanPlan(MemoFilter(tags: ["work"]))
        #expect(tagged.filter { $0.contains("memo_tag") }.count == 1, "\(tagged)")
    }

    /// The word count a memo's row keeps is its text's by the live rule, after an insert and
    /// after an edit, for random texts of every mix of white space and words.
    @Test func theKeptWordCountIsTheLiveRulesCountOfTheText() throws {
        var generator = SystemRandomNumberGenerator()
        func randomPieces() -> String {
            (0..<Int.random(in: 0..<15, using: &generator)).map { _ in
                WordCountTests.pieces.randomElement(using: &generator)!
            }.joined()
        }
        // A memo's text is never blank: one word at least, between random pieces.
        func randomText() -> String { randomPieces() + "x" + randomPieces() }
        func kept(_ id: Int64) throws -> Int64? {
            try store.database.prepare("SELECT word_count FROM memo WHERE id = ?1").scalarInt([.integer(id)])
        }
        for number in 1...100 {
            let text = randomText(), edited = randomText()
            let memo = try store.insert(draft(text, number: number))
            #expect(try kept(memo.id) == Int64(WordCountTests.counted(text)), "\(Array(text.unicodeScalars))")
            try store.updateContent(id: memo.id, to: edited, at: memo.insertDate)
            #expect(try kept(memo.id) == Int64(WordCountTests.counted(edited)), "\(Array(edited.unicodeScalars))")
        }
    }
}

/// The word rule, eight ASCII bytes at a time where it can: the same count as a byte-by-byte
/// reading of runs between white space, for texts of every length and mix.
@Suite("Word count")
struct WordCountTests {
    private static func reference(_ text: String) -> Int {
        text.unicodeScalars.split(whereSeparator: \.properties.isWhitespace).count
    }

    static func counted(_ text: String) -> Int {
        var text = text
        return text.withUTF8 { WordCount.words(in: $0) }
    }

    /// Pieces of text: white space of each kind, words, and characters near white space that are not.
    static let pieces = [
        "a", "bb", " ", "  ", "\t", "\n", "\r\n", "\u{0B}", "\u{0C}", "\u{08}", "\u{0E}", "\u{1F}", "!", "~",
        "\u{7F}", "é", "京都", "\u{00A0}", "\u{3000}", "\u{2003}", "\u{2028}", "\u{205F}", "\u{1680}", "\u{0085}",
        "🎉", "x\u{0301}", "word"
    ]

    @Test func countsRunsBetweenWhiteSpaceAsWcDoes() {
        var generator = SystemRandomNumberGenerator()
        for length in 0..<40 {
            for _ in 0..<50 {
                let text = (0..<length).map { _ in Self.pieces.randomElement(using: &generator)! }.joined()
                #expect(Self.counted(text) == Self.reference(text), "\(Array(text.unicodeScalars))")
            }
        }
        #expect(Self.counted("buy milk eggs coffee call mother about the trip") == 9)
        #expect(Self.counted("        twelve  bytes") == 2)
    }
}
