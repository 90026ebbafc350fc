import MemoNotebookTestSupport
import MemoStore
import Testing

@testable import MemoNotebook

@Suite("Notebook and rendering")
struct RenderingTests {
    let notebook: Notebook

    init() throws {
        notebook = try ScriptedNotebook().notebook
    }

    /// Runs lines through the interpreter and returns what a person would see.
    private func session(_ lines: [String], json: Bool = false, width: Int? = nil, color: Bool = false) -> String {
        let output = StringOutput()
        let renderer: OutcomeRenderer =
            json
            ? JSONRenderer()
            : TextRenderer(style: TextStyle(width: width, color: color, displayTime: .utc))
        let interpreter = LineInterpreter(notebook: notebook, renderer: renderer, output: output) { error, line in
            output.write("\(line): error: \(errorMessage(error))\n")
        }
        for (index, line) in lines.enumerated() { _ = interpreter.feed(line, lineNumber: index + 1) }
        _ = interpreter.finish()
        return output.text
    }

    @Test func addListShowAsText() {
        let text = session(["add Buy milk @shop", "add --tag work Ship it", "list", "show 1"])
        #expect(
            text == """
                added #1
                added #2
                #2  2000-01-01 00:00:01  Ship it  @work
                #1  2000-01-01 00:00:00  Buy milk @shop
                #1
                uuid:     85316dc8-6b32-4318-880f-000000000001
                handle:   memo:85316dc8
                inserted: 2000-01-01 00:00:00
                updated:  never
                tags:     @shop

                Buy milk @shop

                """)
    }

    /// A memo cannot retitle the window, clear the screen or move the cursor: its control
    /// characters are shown, not sent, in every text rendering; JSON keeps them exactly.
    @Test func controlCharactersInMemoTextAreShownNotSent() throws {
        let text = "x\u{1B}]0;pwned\u{07}\u{1B}[2Jy\u{9B}z\u{7F}\tend\nsecond\u{1B}[H line"
        let memo = try notebook.add(text, tags: [])
        let renderer = TextRenderer(style: TextStyle(width: nil, color: false, displayTime: .utc))
        let shown = renderer.block(memo)
        #expect(
            !shown.unicodeScalars.contains { $0.properties.generalCategory == .control && $0 != "\n" && $0 != "\t" })
        #expect(shown.hasSuffix("x^[]0;pwned^G^[[2Jy<U+009B>z^?\tend\nsecond^[[H line\n"))
        #expect(renderer.listLine(memo, text: memo.content).hasSuffix("x^[]0;pwned^G^[[2Jy<U+009B>z^? end …"))
        #expect(
            session(["show 1"], json: true).contains(
                #""content":"x\u001b]0;pwned\u0007\u001b[2Jy\#u{9B}z\#u{7F}\tend\nsecond\u001b[H line""#))
    }

    /// A memo cannot make the rest of its line read backwards or hide text by reordering it:
    /// bidirectional overrides, embeddings and isolates are shown; right-to-left text and the
    /// plain marks (U+200F) are left alone.
    @Test func bidirectionalOverridesAreShownNotSent() throws {
        let memo = try notebook.add("pay \u{202E}001$\u{202C} to \u{2067}x\u{2069} שלום\u{200F}", tags: [])
        let renderer = TextRenderer(style: TextStyle(width: nil, color: false, displayTime: .utc))
        #expect(renderer.block(memo).hasSuffix("pay <U+202E>001$<U+202C> to <U+2067>x<U+2069> שלום\u{200F}\n"))
        #expect(
            renderer.listLine(memo, text: memo.content).hasSuffix(
                "pay <U+202E>001$<U+202C> to <U+2067>x<U+2069> שלום\u{200F}"))
    }

    /// A search shows the line that matched, like grep: the matches in bold on a colour
    /// terminal (also where folding matched them: `twain` in `TWAIN`, `strasse` in `Straße`),
    /// and `--json` gives the line as `snippet`, the memo object otherwise as `list` has it.
    @Test func aSearchShowsTheLineThatMatchedWithTheMatchesInBold() throws {
        _ = try notebook.add("The Mysterious Stranger\nby Mark Twain and TWAIN\nthe end", tags: [])
        _ = try notebook.add("C++ at the Straße store", tags: [])
        let twain = session(["search twain"], color: true)
        #expect(
            twain.hasSuffix("  … by Mark \u{1B}[1mTwain\u{1B}[22m and \u{1B}[1mTWAIN\u{1B}[22m …\n"),
            "\(twain.debugDescription)")
        let strasse = session(["search strasse c++"], color: true)
        #expect(
            strasse.hasSuffix("  \u{1B}[1mC++\u{1B}[22m at the \u{1B}[1mStraße\u{1B}[22m store\n"),
            "\(strasse.debugDescription)")
        #expect(session(["search twain"]).hasSuffix("  … by Mark Twain and TWAIN …\n"))
        let json = session(["search twain"], json: true)
        #expect(json.contains(#""content":"The Mysterious Stranger\nby Mark Twain and TWAIN\nthe end""#))
        #expect(json.hasSuffix(#""tags":[],"snippet":"by Mark Twain and TWAIN"}"# + "\n"))
        #expect(!session(["list"], json: true).contains("snippet"))
    }

    /// The snippet marks what folding matched, whatever the keyboard wrote: `don't` in
    /// `DON’T`, `“so”` in `"so"`, `groß` in `GROẞ`, and a thumbs-up typed without a skin tone
    /// in one with it, the whole emoji marked.
    @Test func aSnippetMarksTypographicQuotesCapitalSharpSAndSkinTones() throws {
        func marked(_ query: String, in content: String) throws -> [String] {
            let snippet = try #require(SearchSnippet(of: content, for: SearchQuery(parsing: query)))
            return snippet.matches.map { String(snippet.line[$0]) }
        }
        #expect(try marked("don't", in: "I DON’T know, don't") == ["DON’T", "don't"])
        #expect(try marked("“so”", in: #"say "so" and „so“"#) == [#""so""#, "„so“"])
        #expect(try marked("groß", in: "GROẞ und groß") == ["GROẞ", "groß"])
        #expect(try marked("👍", in: "ok 👍🏽 and 👍") == ["👍🏽", "👍"])
        #expect(try marked("👍🏽", in: "ok 👍🏿 and 👍🏽") == ["👍🏽"])
    }

    /// Control characters in the matching line are shown and the matches stay bold; on a
    /// narrow terminal the line begins close enough to the match that the match shows.
    @Test func theMatchShowsWhateverTheLineHolds() throws {
        _ = try notebook.add("bell\u{07} needle and \u{1B}[2J needle", tags: [])
        let shown = session(["search needle"], color: true)
        #expect(
            shown.hasSuffix("  bell^G \u{1B}[1mneedle\u{1B}[22m and ^[[2J \u{1B}[1mneedle\u{1B}[22m\n"),
            "\(shown.debugDescription)")
        _ = try notebook.add(String(repeating: "word ", count: 30) + "needle at the end", tags: [])
        for width in [60, 40, 34] {
            let line = session(["search -n 1 needle"], width: width, color: true).split(separator: "\n").last ?? ""
            #expect(line.contains("\u{1B}[1mneedle\u{1B}[22m"), "\(width): \(line.debugDescription)")
        }
    }

    /// Wherever the match stands in the line, at any width and with any number of tags, the
    /// listed line shows all of it: the line begins shortly before it when the match would be
    /// cut off by the tags or the width, as it would for a match far into the line.
    @Test(arguments: [40, 60, 80, 100, 132])
    func theMatchIsInViewWhereverItStands(width: Int) throws {
        let filler =
            "Lorem ipsum dolor sit amet, consectetur adipiscing elit, sed do eiusmod tempor incididunt ut labore"
        let renderer = TextRenderer(style: TextStyle(width: width, color: false, displayTime: .utc))
        let query = try SearchQuery(parsing: "zqxv")
        for tagCount in 0...3 {
            let tags = ["alpha", "beta", "gamma"].prefix(tagCount).map { $0 }
            for position in 0...filler.count {
                let text = String(filler.prefix(position)) + " zqxv " + String(filler.dropFirst(position))
                let memo = Memo(
                    id: 1, uuid: "00000000-0000-4000-8000-000000000001", content: text,
                    insertDate: Timestamp(secondsSince1970: 0), updateDate: nil, tags: tags)
                let line = renderer.listLine(memo, text: memo.content, snippet: SearchSnippet(of: text, for: query))
                #expect(line.contains("zqxv"), "\(width) columns, \(tagCount) tags, at \(position): \(line)")
                #expect(DisplayWidth.of(line) <= width, "\(width) columns: \(line)")
            }
        }
    }

    /// A memo that begins with blank lines is listed by its first line with text.
    @Test func aMemoBegunWithBlankLinesIsListedByItsText() throws {
        _ = try notebook.add("\n  \nthird line only\nfourth", tags: [])
        #expect(session(["list"]).hasSuffix("  third line only …\n"))
    }

    /// Lines ended by CR LF list as lines ended by LF do, without a `^M`, whether the row is
    /// written from its bytes (a pipe) or fitted to a terminal; so do titles and summaries.
    @Test(arguments: [nil, 80] as [Int?])
    func windowsLineEndsEndLines(width: Int?) throws {
        _ = try notebook.add("line one\r\nline two\r\n", tags: [])
        _ = try notebook.add("\r\n  \r\nafter blank lines\r\nmore", tags: [])
        let lines = session(["list"], width: width).split(separator: "\n").map {
            $0.split(separator: "  ", maxSplits: 2).last.map(String.init)
        }
        #expect(lines == ["after blank lines …", "line one …"])
        #expect(MemoContent.firstLine(of: "line one\r\nline two") == "line one")
        #expect(MemoContent.title(of: "\r\n \r\ntitle\r\n") == "title")
    }

    /// The whole listing line, tags included, fits the terminal, however narrow.
    @Test(arguments: [80, 40, 34, 30, 26, 25, 24, 20, 10, 1])
    func listingLinesFitNarrowTerminals(_ width: Int) throws {
        _ = try notebook.add("A memo with a long first line about many things @shop @errand", tags: ["work"])
        _ = try notebook.add("短い日本語のメモですが幅は二倍です @旅行", tags: [])
        let lines = session(["list"], width: width).split(separator: "\n")
        #expect(lines.count == 2)
        for line in lines {
            #expect(DisplayWidth.of(line) <= width, "\(line) is wider than \(width)")
            #expect(
                line.hasPrefix(String("#2  2000-01-01 00:00:01".prefix(width - 1)))
                    || line.hasPrefix(String("#1  2000-01-01 00:00:00".prefix(width - 1))))
        }
        if width >= 60 { #expect(lines[1].hasSuffix("@errand @shop @work")) }
    }

    /// A failing command leaves no trace in a script's clock or its uuid sequence: the memos
    /// after it get the dates and the places in the sequence (the uuid's last digits) they
    /// would have had without it.
    @Test func failedCommandsDoNotMoveTheClockOrTheUUIDs() {
        let text = session([
            "add one", "add \"\"", "edit 9 nothing", "tag 5 x", "add --tag 'bad!' x", "add two", "show 2"
        ])
        #expect(
            text.contains(
                /uuid:     [0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-8[0-9a-f]{3}-000000000002\nhandle:   memo:[0-9a-f]{8,31}\ninserted: 2000-01-01 00:00:01\n/
            ))
    }

    @Test func deleteAndShowNameEveryMissingId() {
        let text = session(["add one", "delete 1 98 99 98", "show 97 1 96", "count"])
        #expect(text == "added #1\n2: error: no memos #98, #99\n3: error: no memos #97, #96\n1\n")
    }

    /// Grouping is presentation: JSON output is the same with or without it.
    @Test func groupingLeavesJSONUnchanged() {
        _ = session(["add one", "clock 2000-02-01T00:00Z", "add two"])
        #expect(session(["list --group month"], json: true) == session(["list"], json: true))
        #expect(session(["list --group month"]).hasPrefix("2000-02\n#2  2000-02-01 00:00:00  two\n\n2000-01\n#1"))
    }

    @Test func memosAsJSONLines() {
        let text = session(["add \"quote \\\" and\\nnewline\"", "edit 1 changed", "list"], json: true)
        #expect(
            text == """
                {"id":1,"uuid":"88b62424-64e0-48d4-8f6d-000000000001","content":"quote \\" and\\nnewline","insertDate":"2000-01-01T00:00:00.000Z","updateDate":null,"tags":[]}
                {"id":1,"uuid":"88b62424-64e0-48d4-8f6d-000000000001","content":"changed","insertDate":"2000-01-01T00:00:00.000Z","updateDate":"2000-01-01T00:00:01.000Z","tags":[]}
                {"id":1,"uuid":"88b62424-64e0-48d4-8f6d-000000000001","content":"changed","insertDate":"2000-01-01T00:00:00.000Z","updateDate":"2000-01-01T00:00:01.000Z","tags":[]}

                """)
    }

    @Test func otherOutcomesAsOneJSONObject() {
        let text = session(["add a @x", "add b @x @y", "count --tag x", "tags", "delete 1 2"], json: true)
        let lines = text.split(separator: "\n").suffix(3)
        #expect(
            Array(lines) == [
                #"{"count":2}"#,
                #"{"tags":[{"name":"x","count":2},{"name":"y","count":1}]}"#,
                #"{"deleted":[1,2]}"#
            ])
    }

    @Test func listFiltersByDay() {
        let text = session([
            "add day one", "add day one again",
            "list --on 2000-01-01 --asc -n 1", "count --on yesterday", "count --since today", "count --until 1999-12-31"
        ])
        #expect(text.split(separator: "\n").suffix(4) == ["#1  2000-01-01 00:00:00  day one", "0", "2", "0"])
    }

    @Test func longLinesAreShortenedKeepingTags() {
        let text = session(["add " + String(repeating: "長い", count: 40) + " @tag", "list"], width: 50)
        let line = String(text.split(separator: "\n")[1])
        #expect(DisplayWidth.of(line) <= 50)
        #expect(line.hasSuffix("…  @tag"))
        #expect(line.hasPrefix("#1  2000-01-01 00:00:00  長い"))
    }

    /// The tags at the end of a listed line are those its shown text does not show: an inline
    /// `@Shop` shows `shop`; a tag on a later line, given with `--tag`, or cut off by the
    /// shortening is shown at the end.
    @Test func listedLinesDoNotRepeatTheTagsTheyShow() {
        let text = session(
            [
                "add --tag extra Buy @Shop milk @home",
                "add <<END", "first line", "later @errand", "END",
                "add " + String(repeating: "word ", count: 12) + "@far", "list"
            ], width: 60)
        let lines = text.split(separator: "\n").suffix(3).map(String.init)
        #expect(lines[0].hasSuffix("…  @far"))
        #expect(DisplayWidth.of(lines[0]) <= 60)
        #expect(lines[1].hasSuffix("  first line …  @errand"))
        #expect(lines[2].hasSuffix("  Buy @Shop milk @home  @extra"))
    }

    @Test func multiLineMemosListTheirFirstLine() {
        let text = session(["add <<END", "first line", "", "third", "END", "list", "show 1"])
        #expect(text.contains("#1  2000-01-01 00:00:00  first line …\n"))
        #expect(text.hasSuffix("\nfirst line\n\nthird\n"))
    }

    @Test func errorsAreReportedAndTheSessionGoesOn() throws {
        let text = session(["delete 1", "add ok", "list -n x", "add <<END", "never finished"])
        #expect(
            text == """
                1: error: no memo #1
                added #1
                3: error: invalid number 'x' for '-n': expected 0 or more
                4: error: text ended before the heredoc's closing 'END'

                """)
        #expect(try notebook.store.count() == 1)
    }

    @Test func failedDeleteDeletesNothing() throws {
        _ = session(["add one", "add two", "delete 1 99"])
        #expect(try notebook.store.count() == 2)
    }

    @Test func infoDescribesTheStore() throws {
        let text = session(["add a", "begin", "add b", "tag 1 x", "show 1", "info"], json: true)
        let version = try notebook.store.info().sqliteVersion
        #expect(
            text.hasSuffix(
                #"{"mode":"memory","path":null,"schemaVersion":13,"memoCount":2,"sqliteVersion":"\#(version)","journalMode":"memory","encrypted":false,"unsavedChanges":2}"#
                    + "\n"))
    }

    @Test func helpListsEveryCommand() {
        let text = session(["help"])
        for syntax in CommandSyntax.all { #expect(text.contains("  " + syntax.name + " ")) }
        #expect(session(["help rm"]).hasPrefix("usage: delete ID... | delete -i [list options] [QUERY]\n"))
    }

    /// A snippet's lines are the text's lines: a line feed ends a line, and so does a CR LF
    /// pair (as Windows writes lines), whose CR the line does not show; a CR alone does not.
    @Test func snippetLinesSplitAtLineFeeds() throws {
        let query = try SearchQuery(parsing: "match")
        let second = try #require(SearchSnippet(of: "one\ntwo match\nthree", for: query))
        #expect(second.line == "two match" && second.followsLines && second.isFollowed)
        let windows = try #require(SearchSnippet(of: "one\r\ntwo match\r\nthree", for: query))
        #expect(windows.line == "two match" && windows.followsLines && windows.isFollowed)
        let lone = try #require(SearchSnippet(of: "one\rtwo match", for: query))
        #expect(lone.line == "one\rtwo match" && !lone.followsLines && !lone.isFollowed)
        let last = try #require(SearchSnippet(of: "one\n\nMATCH", for: query))
        #expect(last.line == "MATCH" && last.followsLines && !last.isFollowed)
        let ended = try #require(SearchSnippet(of: "a match\n", for: query))
        #expect(ended.line == "a match" && !ended.followsLines && ended.isFollowed)
        let crBeforeCRLF = try #require(SearchSnippet(of: "one\r\r\nMatch", for: query))
        #expect(crBeforeCRLF.line == "Match" && crBeforeCRLF.followsLines && !crBeforeCRLF.isFollowed)
        let firstCRLF = try #require(SearchSnippet(of: "\r\nmatch", for: query))
        #expect(firstCRLF.line == "match" && firstCRLF.followsLines)
        #expect(SearchSnippet(of: "one\r\nmat\nch", for: query) == nil)
    }
}
