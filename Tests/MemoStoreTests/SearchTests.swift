import Testing

@testable import MemoStore

@Suite("Full-text search")
struct SearchTests {
    /// The FTS5 expressions people's queries become: every word quoted, so nothing a person
    /// types is read as FTS5 syntax.
    @Test(arguments: [
        ("milk", #""milk""#),
        ("milk eggs", #""milk" AND "eggs""#),
        (#""coffee beans""#, #""coffee beans""#),
        ("cof*", #""cof" *"#),
        (#""coffee be"*"#, #""coffee be" *"#),
        ("milk OR tea eggs", #"("milk" OR "tea") AND "eggs""#),
        // A word the index leaves out exactly; a phrase is left out where the memo's text
        // holds it, which that text decides.
        ("coffee -milk -\"eggs and\"", #"("coffee") NOT ("milk")"#),
        ("東京tower", #"("東京" AND "tower")"#),
        (#""漢字; 한국어""#, #"("漢字" AND "한국 국어")"#),
        ("旅行", #""旅行""#),
        ("予約する", #""予約 約す する""#),
        ("宿", #""宿" *"#),
        ("memo旅行", #""memo 旅行""#),
        (#"say"hi""#, #""say" AND "hi""#),
        ("NEAR(a", #""near(a""#),
        ("col:umn", #""col:umn""#)
    ])
    func queriesBecomeQuotedExpressions(_ query: String, _ expression: String) throws {
        #expect(try SearchQuery(parsing: query).expression == expression)
    }

    @Test(arguments: [
        ("", "nothing to search for"),
        ("   ", "nothing to search for"),
        ("-milk", "only excluded words: give a word to find too"),
        ("OR milk", "'OR' needs a word before it"),
        ("milk OR", "'OR' needs a word after it"),
        ("milk OR OR tea", "'OR' needs a word before it"),
        ("milk OR -tea", "'OR' cannot be followed by an excluded word"),
        (#""open"#, #"a quote (") is not closed"#),
        ("*", "'*' has no letters, digits or emoji to search for"),
        ("& -", "'&' has no letters, digits or emoji to search for")
    ])
    func malformedQueriesAreExplained(_ query: String, _ reason: String) {
        #expect(throws: StoreError.invalidSearch(query: query, reason: reason)) { try SearchQuery(parsing: query) }
    }

    /// CJK runs are indexed as overlapping pairs plus their last character, so any part of
    /// a sentence written without spaces is found.
    @Test func indexedTextCutsCJKRunsIntoPairs() {
        #expect(SearchText.indexed("京都旅行の宿") == " 京都 都旅 旅行 行の の宿 宿 ")
        #expect(SearchText.indexed("여행을 떠나요") == " 여행 행을 을   떠나 나요 요 ")
        #expect(SearchText.indexed("Tea at 3pm") == "tea at 3pm")
        #expect(SearchText.indexed("memo旅") == "memo 旅 ")
        #expect(SearchText.tokens(of: "旅行の宿") == ["旅行", "行の", "の宿"])
    }

    /// Text beyond ASCII is folded from its UTF-8 bytes: the ASCII among it by the same rules
    /// (control characters and DEL are white space there), CJK and emoji copied as they stand.
    @Test func foldingMixedTextKeepsEachRule() {
        #expect(SearchText.folded("Caf\u{E9}\u{7F}X\u{1}y \u{3000}旅\u{1F600}Ｂ") == "cafe x y 旅\u{1F600}b")
        #expect(SearchText.folded("A\u{7F}b\u{1}c") == "a\u{7F}b\u{1}c")
    }

    @Test func searchFindsWordsInEveryLanguageNewestFirst() throws {
        let store = try MemoStore.open(.memory)
        let texts = ["Buy milk and coffee", "京都旅行の宿を予約する", "여행을 떠나기 전에", "Café with Zoë", "milk tea"]
        for (number, text) in texts.enumerated() {
            try store.insert(draft(text, at: Int64(number), number: number + 1))
        }
        func ids(_ query: String) throws -> [Int64] {
            try store.all(MemoQuery(filter: MemoFilter(search: SearchQuery(parsing: query)))).map(\.id)
        }
        #expect(try ids("milk") == [5, 1])
        #expect(try ids("旅行") == [2])
        #expect(try ids("予約") == [2])
        #expect(try ids("宿") == [2])
        #expect(try ids("여행") == [3])
        #expect(try ids("cafe zoe") == [4])
        #expect(try ids("milk -tea") == [1])
        #expect(try ids("\"tea milk\"") == [])
        #expect(try ids("x') OR 1=1; DELETE FROM memo; --x") == [])
        #expect(try store.count() == 5)
        try store.updateContent(id: 2, to: "予定なし", at: Timestamp(secondsSince1970: 0))
        #expect(try ids("旅行") == [])
        #expect(try ids("予定") == [2])
        _ = try store.delete(ids: [5])
        #expect(try ids("milk") == [1])
        #expect(try store.count(MemoFilter(search: SearchQuery(parsing: "milk OR 予定"))) == 2)
    }

    /// What a person types finds what they wrote, however their keyboard wrote it: typographic
    /// quotes are the typewriter's, `ẞ` is `ss` as `ß` is; a skin tone typed must be in the
    /// result, an emoji typed without one finds it with any; a prefix of letters finds words,
    /// never an emoji (whose index token is no word a query can spell).
    @Test func searchFoldsWhatKeyboardsWriteAndKeepsWhatWasTyped() throws {
        let store = try MemoStore.open(.memory)
        let texts = [
            "I don’t know", "don't panic", "“quoted” word", "\"quoted\" too", "Groß", "GROẞ", "gross",
            "thumbs 👍🏽", "plain 👍", "dark 👍🏿", "emma said", "pizza 🍕 ❤️", "ʼokina don‘t"
        ]
        for (number, text) in texts.enumerated() {
            try store.insert(draft(text, at: Int64(number), number: number + 1))
        }
        func ids(_ query: String) throws -> Set<Int64> {
            Set(try store.all(MemoQuery(filter: MemoFilter(search: SearchQuery(parsing: query)))).map(\.id))
        }
        #expect(try ids("don't") == [1, 2, 13])
        #expect(try ids("don’t") == [1, 2, 13])
        #expect(try ids("don‘t") == [1, 2, 13])
        #expect(try ids("“quoted”") == [3, 4])
        #expect(try ids("„quoted“") == [3, 4])
        #expect(try ids("Groß") == [5, 6, 7])
        #expect(try ids("GROẞ") == [5, 6, 7])
        #expect(try ids("👍") == [8, 9, 10])
        #expect(try ids("👍🏽") == [8])
        #expect(try ids("👍🏿") == [10])
        #expect(try ids("\"thumbs 👍\"") == [8])
        #expect(try ids("em*") == [11])
        #expect(try ids("e*") == [11])
        #expect(try ids("emoji*") == [])
        #expect(try ids("emoji1f44d") == [])
        #expect(try ids("1f*") == [])
    }

    /// A needle is found where a word stands: not inside a longer word, a prefix at a word's
    /// start; anywhere in Han, kana and Hangul, which put no spaces between words.
    @Test(arguments: [
        ("cat", false, "the cat sat", true), ("cat", false, "concatenate", false), ("cat", false, "category", false),
        ("cat", true, "category", true), ("cat", true, "concatenate", false), ("c++", false, "abc++ c", false),
        ("c++", false, "in c++, too", true), ("$100", false, "$1000", false), ("$100", false, "($100)", true),
        ("旅行", false, "京都旅行の宿", true), ("여행", false, "여행을", true), ("tower", false, "東京tower", true),
        ("don't", false, "i don't", true), ("🍕", false, "pizza🍕", true), ("👍", false, "ok👍🏽", true),
        ("👍🏽", false, "ok👍", false), ("👍🏽", false, "ok👍🏿", false), ("👍🏽", false, "ok👍🏽!", true), ("👩", false, "👩🏽‍💻", true)
    ])
    func needlesStandWhereWordsStand(_ text: String, _ isPrefix: Bool, _ content: String, _ found: Bool) {
        #expect(
            SearchNeedle(text, isPrefix: isPrefix).isFound(in: FoldedText(folded: SearchText.folded(content))) == found)
    }

    /// A needle's bytes are found only between two characters of the folded text: not at the
    /// start of a flag pair that is not one, not before a mark that joins a character (but a
    /// skin tone, which a needle typed without one may end before), not inside a character,
    /// at every edge the needle needs.
    @Test(arguments: [
        ("🇸🇫", "🇺🇸🇫🇷", false), ("🇫🇷", "🇺🇸🇫🇷", true), ("e", "e\u{20DD}", false), ("ab", "x ab\r\nq", true),
        ("b", "a\r\nb", true), ("한국", "대한국민", true), ("cafe", "CAFÉ au lait", true), ("café", "cafe", true),
        ("don't", "I DON’T", true), ("don’t", "don't", true), ("„so“", "\"so\"", true), ("strasse", "STRAẞE", true)
    ])
    func needlesAreFoundBetweenCharacters(_ text: String, _ content: String, _ found: Bool) {
        let needle = SearchNeedle(SearchText.folded(text), isPrefix: false)
        #expect(needle.isFound(in: FoldedText(folded: SearchText.folded(content))) == found)
    }

    /// 20,000 texts of six pieces each, the same on every run.
    private static func randomTexts(of pieces: [String]) -> [String] {
        var state: UInt64 = 20261202
        return (0..<20_000).map { _ in
            (0..<6).map { _ in
                state = state &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
                return pieces[Int(state >> 33) % pieces.count]
            }.joined()
        }
    }

    /// Folding leaves a text of ASCII, ideographs, syllables, kana letters and pictographs
    /// unnormalized (NFC is a tenth of an import): its folded form must be NFC already, next
    /// to what composes with those characters (voiced marks, jamo, accents) and what does not.
    @Test func aTextFoldedWithoutNormalizingIsNormalized() {
        let pieces = [
            "a", "K", " ", "京", "都", "한", "가", "か", "ウ", "ヴ", "ゔ", "\u{3099}", "\u{309A}", "\u{1161}", "\u{11A8}",
            "\u{1100}", "\u{0301}", "\u{0308}", "e", "🎉", "☕", "\u{FE0F}", "ｶ", "\u{FF9E}", "ー", "ヽ", "\u{30FE}",
            "ẞ", "’", "“", "👍", "\u{1F3FD}", "\u{0323}"
        ]
        for text in Self.randomTexts(of: pieces) {
            for folded in [SearchText.folded(text)] {
                #expect(
                    String(decoding: folded._nfcCodeUnits, as: UTF8.self).utf8.elementsEqual(folded.utf8),
                    "\(Array(text.unicodeScalars))")
            }
        }
    }

    /// `FoldedText.characterEnd` decides most characters without the grapheme rules: it must
    /// cut every text where `Character`s end, next to what joins characters (skin tones,
    /// joiners, variation selectors, jamo, accents, voiced marks, CR LF, flags).
    @Test func charactersEndWhereSwiftEndsThem() {
        let pieces = [
            "a", " ", "\r", "\n", "京", "한", "가", "か", "ウ", "👍", "🎉", "☕", "✈", "\u{1F3FD}", "\u{200D}", "\u{FE0F}",
            "\u{3099}", "\u{1161}", "\u{11A8}", "\u{1100}", "\u{0301}", "é", "\u{1F1EF}", "\u{1F1F5}", "\u{0E33}",
            "\u{0903}"
        ]
        for text in Self.randomTexts(of: pieces) {
            var ends: [String.Index] = [], index = text.startIndex
            while index < text.endIndex {
                index = FoldedText.characterEnd(in: text, from: index)
                ends.append(index)
            }
            #expect(ends == text.indices.map { text.index(after: $0) }, "\(Array(text.unicodeScalars))")
        }
    }

    /// The snippet's folding takes CJK ideographs, Hangul syllables, kana letters and
    /// pictographs as they are: each folds to itself, as `folded` says; skin tones, which
    /// fold to themselves but join the emoji before them, are not taken so.
    @Test func ideographsSyllablesAndPictographsFoldToThemselves() {
        let scalars = (0...0x10FFFF).compactMap(Unicode.Scalar.init).filter(SearchText.foldsToItself)
        #expect(
            scalars.count == 0x9FFF - 0x4E00 + 1 + 0xD7A3 - 0xAC00 + 1 + 0x1FAFF - 0x1F300 + 1 - 5 + 0x27BF - 0x2600 + 1
                + 0x3096 - 0x3041 + 1 + 0x30FA - 0x30A1 + 1)
        #expect(scalars.allSatisfy { SearchText.folded(String($0)) == String($0) })
        #expect(!SearchText.foldsToItself("\u{1F3FD}") && SearchText.folded("\u{1F3FD}") == "\u{1F3FD}")
    }
}
