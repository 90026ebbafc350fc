import Testing

@testable import MemoStore

/// The query language beyond words: groups in parentheses, phrases across the punctuation that
/// splits words, and fixed strings (`search -F`), which read nothing in the text as syntax.
@Suite("Search language")
struct SearchLanguageTests {
    private let store: MemoStore

    init() throws {
        store = try MemoStore.open(.memory)
        let texts = [
            "love and war", "hate in war", "love in peace", "Jean-Paul Sartre", "jeanpaul", "cd ..; rm -rf junk",
            "f(x) = 2", "seeing the world", "concatenate", "Jean Paul, again"
        ]
        for (number, text) in texts.enumerated() {
            try store.insert(draft(text, at: Int64(number), number: number + 1))
        }
    }

    private func ids(_ query: String) throws -> [Int64] {
        try store.all(MemoQuery(filter: MemoFilter(search: SearchQuery(parsing: query)))).map(\.id).sorted()
    }

    private func ids(fixed text: String) throws -> [Int64] {
        try store.all(MemoQuery(filter: MemoFilter(search: SearchQuery(fixed: text)))).map(\.id).sorted()
    }

    /// Parentheses group as FTS5's own do; every word inside stays a quoted string.
    @Test(arguments: [
        ("(love OR hate) war", #"("love" OR "hate") AND "war""#),
        ("(love war) OR peace", #"(("love" AND "war") OR "peace")"#),
        ("((love))", #""love""#),
        ("( love OR hate )", #"("love" OR "hate")"#),
        ("war (love OR (hate peace))", #""war" AND ("love" OR ("hate" AND "peace"))"#),
        ("f(x)", #""f(x)""#),
        (":) love", #""love""#),
        (#""(love OR hate)""#, #""(love or hate)""#)
    ])
    func groupsBecomeFTS5Groups(_ query: String, _ expression: String) throws {
        #expect(try SearchQuery(parsing: query).expression == expression)
    }

    @Test func groupsFindWhatTheyGroup() throws {
        #expect(try ids("(love OR hate) war") == [1, 2])
        #expect(try ids("(love war) OR peace") == [1, 3])
        #expect(try ids("war (love OR hate) -hate") == [1])
        #expect(try ids("f(x)") == [7])
    }

    @Test(arguments: [
        ("(love OR hate war", "a parenthesis '(' is not closed"),
        ("() war", "'()' holds nothing to search for"),
        ("(@work OR love)", "a tag cannot stand inside parentheses: give it outside them"),
        ("(love -war)", "an excluded word cannot stand inside parentheses: give it outside them"),
        ("-(love war)", "a group cannot be left out: leave out each of its words (-a -b)"),
        ("love OR (", "a parenthesis '(' is not closed")
    ])
    func malformedGroupsAreExplained(_ query: String, _ reason: String) {
        #expect(throws: StoreError.invalidSearch(query: query, reason: reason)) { try SearchQuery(parsing: query) }
    }

    /// A phrase's words may stand apart by any punctuation that splits words, as the index
    /// splits them, but not run together nor stand apart by another word.
    @Test func phrasesMatchAcrossPunctuation() throws {
        #expect(try ids(#""Jean Paul""#) == [4, 10])
        #expect(try ids(#""Jean-Paul""#) == [4])
        #expect(try ids(#""paul sartre""#) == [4])
    }

    @Test(arguments: [
        ("jean paul", "jean-paul", true), ("jean paul", "jean, paul", true), ("jean paul", "jeanpaul", false),
        ("jean paul", "jean 🍕 paul", false), ("jean paul", "jean x paul", false), ("a (b", "a ((b", true),
        ("jean paul", "jean-pauline", false), ("東京 タワー", "東京、タワー", true)
    ])
    func phraseNeedlesSkipPunctuation(_ text: String, _ content: String, _ found: Bool) {
        let needle = SearchNeedle(SearchText.folded(text), isPrefix: false)
        #expect(needle.isFound(in: FoldedText(folded: SearchText.folded(content))) == found)
    }

    /// `-F`: the text as typed, a substring of the memo's text (case and accents folded as
    /// every search folds them), nothing in it read as syntax.
    @Test func fixedStringsFindPastedText() throws {
        #expect(try ids("cd ..; rm -rf junk") == [])
        #expect(try ids(fixed: "cd ..; rm -rf junk") == [6])
        #expect(try ids(fixed: "RM -RF") == [6])
        #expect(try ids(fixed: "ing the wor") == [8])
        #expect(try ids(fixed: "cat") == [9])
        #expect(try ids(fixed: "(x) =") == [7])
        #expect(try ids(fixed: "love OR hate") == [])
        #expect(try ids(fixed: "-rf") == [6])
        #expect(try SearchQuery(fixed: "(x) =").needles == [SearchNeedle("(x) =", kind: .substring)])
        #expect(throws: StoreError.invalidSearch(query: "  ", reason: "nothing to search for")) {
            try SearchQuery(fixed: "  ")
        }
    }
}
