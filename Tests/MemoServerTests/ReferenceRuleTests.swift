import Foundation
import Testing

@testable import MemoServer

/// What counts as a memo reference in a document of each language (docs/REFERENCE.md,
/// References in documents): not a `#` in a URL or after `/`, not an HTML character reference, not
/// a hex colour in style sheets and markup, and, in Markdown, not code in spans or fenced blocks.
/// Shown through the links the server gives: every reference to an existing memo links to its file.
@Suite("The reference rule in documents")
struct ReferenceRuleTests {
    let harness: ServerHarness

    init() throws {
        harness = try ServerHarness.initialized()
        for number in 1...4 { try harness.request("memo/add", ["content": "memo \(number)"]) }
    }

    private func open(_ uri: String, _ language: String, _ text: String) throws {
        try harness.open(uri, language: language, text: text)
    }

    private func change(_ uri: String, _ line: Int, _ from: Int, _ to: Int, _ text: String) throws {
        _ = try harness.notify(
            "textDocument/didChange",
            [
                "textDocument": ["uri": uri, "version": 2],
                "contentChanges": [
                    [
                        "range": ["start": ["line": line, "character": from], "end": ["line": line, "character": to]],
                        "text": text
                    ]
                ]
            ])
    }

    /// The linked references as (line, start, end).
    private func links(_ uri: String) throws -> [[Int]] {
        let reply = try harness.request("textDocument/documentLink", ["textDocument": ["uri": uri]])
        return (reply["result"] as? [[String: Any]] ?? []).map { link in
            let range = link["range"] as? [String: [String: Int]]
            return [
                range?["start"]?["line"] ?? -1, range?["start"]?["character"] ?? -1, range?["end"]?["character"] ?? -1
            ]
        }
    }

    private func warnings(_ uri: String) -> [String] {
        let published = harness.notifications("textDocument/publishDiagnostics").last { $0["uri"] as? String == uri }
        return (published?["diagnostics"] as? [[String: Any]] ?? []).compactMap { $0["message"] as? String }
    }

    @Test func urlsAndCharacterReferencesHoldNoReferences() throws {
        let uri = "file:///notes.txt"
        try open(
            uri, "plaintext", "https://x/#12 https://github.com/o/r/issues/#2 a/#3 &#1; (see #4) http://h.com/p?q#1")
        #expect(try links(uri) == [[0, 62, 64]])
        #expect(warnings(uri).isEmpty)
    }

    /// `memo:UUID` in a URL is part of the URL, as `#ID` is.
    @Test func uuidReferencesInURLsAreNoReferences() throws {
        let memo = try harness.request("memo/get", ["id": 1])["result"] as? [String: Any]
        let uuid = try #require(memo?["uuid"] as? String)
        let uri = "file:///urls.txt"
        try open(
            uri, "plaintext", "http://h/memo:\(uuid) http://h/?q=memo:\(uuid) https://h.com/x#memo:\(uuid) memo:\(uuid)"
        )
        let start = 3 * (uuid.count + 5) + "http://h/ http://h/?q= https://h.com/x# ".count
        #expect(try links(uri) == [[0, start, start + 5 + uuid.count]])
    }

    @Test(arguments: [("file:///style.css", "css"), ("file:///page.html", "html"), ("file:///x.scss", "")])
    func hexColoursInStyleSheetsAndMarkupAreNoReferences(_ uri: String, _ language: String) throws {
        try open(uri, language, "color: #333; background: #1234; border: #123456 #12345678; see #2 and #12345")
        #expect(try links(uri) == [[0, 63, 65]])
        #expect(warnings(uri) == ["no memo #12345"])
    }

    /// Where a style sheet or markup has no value, in text and comments, `#` and digits is a
    /// reference again, whatever the count of digits.
    @Test(arguments: [
        ("file:///style.css", "css", "/* see #333 for why */ a { color: #444 }", ["no memo #333"]),
        (
            "file:///page.html", "html",
            "<p style=\"color:#333\">issue #123 was fixed, <i>#4567</i> too</p><font color=#fff>",
            ["no memo #123", "no memo #4567"]
        ),
        ("file:///x.scss", "", "$g: linear-gradient(#123, #456); // after #789 landed", ["no memo #789"])
    ])
    func coloursAreColoursOnlyWhereValuesStand(
        _ uri: String, _ language: String, _ text: String, _ said: [String]
    ) throws {
        try open(uri, language, text)
        #expect(warnings(uri) == said)
    }

    /// What a tag holds is attributes: `href="#77"` is a fragment, `src=#79` too, and a
    /// colour in a `style`; text between tags has references. So does Markdown, which holds
    /// markup, and its link definitions (`[b]: #80`) name fragments.
    @Test(arguments: [
        (
            "file:///page.html", "html", "<a href=\"#77\">see #5</a> <img src=#79> <p>issue #6</p>",
            ["no memo #5", "no memo #6"]
        ),
        (
            "file:///notes.md", "markdown",
            "<a href='#78'>#5</a> <span style=\"color:#333\">x</span>\n[b]: #80\n  [c]:   #81 \"t\"\n[d] #7",
            ["no memo #5", "no memo #7"]
        )
    ])
    func whatATagHoldsIsNoReference(_ uri: String, _ language: String, _ text: String, _ said: [String]) throws {
        try open(uri, language, text)
        #expect(warnings(uri) == said)
    }

    @Test func aMarkdownLinksFragmentIsNoReference() throws {
        let uri = "file:///notes.md"
        try open(uri, "markdown", "[the heading](#3) and (#2) and [#1](#4)")
        #expect(try links(uri) == [[0, 23, 25], [0, 32, 34]])
    }

    /// Fenced blocks inside list items and block quotes are code too, however deep.
    @Test func fencesInListItemsAndBlockQuotesAreCode() throws {
        let uri = "file:///notes.md"
        try open(
            uri, "markdown",
            """
            - item
              ```
              #1
              ```
            > ```
            > #2
            > ```
            1. first
               - nested
                 ~~~
                 #3
                 ~~~
            #4 after
            """)
        #expect(try links(uri).map { $0[0] } == [12])
    }

    /// Completion after `#` offers memos only where the `#` would begin a reference.
    @Test func completionAfterAHashFollowsTheRule() throws {
        let uri = "file:///notes.md"
        let lines = ["see #", "https://x/#", "a/#", "&#", "`code #`", "[link](#", "```", "#", "```", "(#"]
        try open(uri, "markdown", lines.joined(separator: "\n"))
        func offered(_ line: Int) throws -> Int {
            let character = lines[line].hasSuffix("`") ? lines[line].count - 1 : lines[line].count
            let result = try harness.request(
                "textDocument/completion",
                [
                    "textDocument": ["uri": uri],
                    "position": ["line": line, "character": character]
                ]
            ).result
            return (result?["items"] as? [Any])?.count ?? -1
        }
        #expect(try offered(0) == 4)
        #expect(try offered(9) == 4)
        for line in [1, 2, 3, 4, 5, 7] { #expect(try offered(line) == 0, "\(lines[line])") }
    }

    /// In a command file a `#` in a memo's text completes memos too; the `#` that starts a
    /// comment line does not. In a style sheet, a `#` where a colour goes completes nothing.
    @Test func completionAfterAHashInCommandFilesAndStyleSheets() throws {
        func offered(_ uri: String, _ language: String, _ line: String) throws -> Int {
            try open(uri, language, line)
            let result = try harness.request(
                "textDocument/completion",
                [
                    "textDocument": ["uri": uri],
                    "position": ["line": 0, "character": line.count]
                ]
            ).result
            // A command file's items also complete commands; its memos are the `#ID` ones.
            return (result?["items"] as? [[String: Any]])?.filter {
                ($0["label"] as? String).map { $0.hasPrefix("#") || $0.hasPrefix("memo:") } == true
            }.count ?? -1
        }
        #expect(try offered("file:///a.memo", "memo", "add see #") == 4)
        #expect(try offered("file:///b.memo", "memo", "#") == 0)
        #expect(try offered("file:///c.css", "css", "a { color: #") == 0)
        #expect(try offered("file:///d.css", "css", "/* after #") == 4)
    }

    /// `#1` offers memo #1 first however many ids start with 1; a memo whose text starts with
    /// blank lines is named by its first line that is not blank, in hints, symbols and menus;
    /// a symbol query may end in `*` as a search does.
    @Test func completionHintsAndSymbolsNameMemosWell() throws {
        try harness.request("memo/add", ["content": "\n\nthird line only, pizza night"])
        for number in 6...200 { try harness.request("memo/add", ["content": "memo \(number)"]) }
        let uri = "file:///notes.txt"
        try open(uri, "plaintext", "#1 and #5")
        let completion = try harness.request(
            "textDocument/completion", ["textDocument": ["uri": uri], "position": ["line": 0, "character": 2]])
        let items = try #require(completion.result?["items"] as? [[String: Any]])
        let first = items.min { ($0["sortText"] as? String ?? "") < ($1["sortText"] as? String ?? "") }
        #expect((first?["detail"] as? String)?.hasPrefix("#1 ") == true, "memo #1, in a note by its stable form")
        let hints = try harness.request(
            "textDocument/inlayHint",
            [
                "textDocument": ["uri": uri],
                "range": ["start": ["line": 0, "character": 0], "end": ["line": 0, "character": 9]]
            ])
        #expect(
            (hints["result"] as? [[String: Any]])?.compactMap { $0["label"] as? String } == [
                "memo 1", "third line only, pizza night"
            ])
        for query in ["piz*", "pizza night*", "pizza"] {
            let symbols = try harness.request("workspace/symbol", ["query": query])["result"] as? [[String: Any]]
            #expect(symbols?.compactMap { $0["name"] as? String } == ["third line only, pizza night"], "\(query)")
        }
    }

    @Test func aColourInPlainTextIsAReference() throws {
        let uri = "file:///notes.txt"
        try open(uri, "plaintext", "#333 is missing")
        #expect(warnings(uri) == ["no memo #333"])
    }

    @Test func markdownCodeSpansAndFencedBlocksHoldNoReferences() throws {
        let uri = "file:///notes.md"
        try open(uri, "markdown", "`#1` and ``a `#2` b`` but #3\n```sh\necho #1\n```\n#4 after\n~~~~\n#2\n~~~\n#99")
        #expect(try links(uri) == [[0, 26, 28], [4, 0, 2]])
        #expect(warnings(uri).isEmpty, "an unclosed fence runs to the end: #99 is code")
    }

    @Test func typingAFenceMakesTheLinesAfterItCodeAndDeletingItMakesThemText() throws {
        let uri = "file:///notes.md"
        try open(uri, "markdown", "intro #1\nnot yet\n#2 middle\n#3 end")
        #expect(try links(uri).map { $0[0] } == [0, 2, 3])
        try change(uri, 1, 0, 7, "```")
        #expect(try links(uri).map { $0[0] } == [0])
        try change(uri, 3, 6, 6, "\n```\n#1 again")
        #expect(try links(uri).map { $0[0] } == [0, 5])
        try change(uri, 1, 0, 3, "text")
        #expect(try links(uri).map { $0[0] } == [0, 2, 3], "the fence left opens a block to the end")
    }

    /// A document naming thousands of missing memos gets the thousand warnings nearest the
    /// line last edited (opened, the first) and a note on how many more there are, not a
    /// message of every one at each keystroke.
    @Test func warningsStopAtAThousandWithANote() throws {
        let uri = "file:///many.txt"
        try open(uri, "plaintext", (100...1_599).map { "#\($0)" }.joined(separator: "\n"))
        let said = warnings(uri)
        #expect(said.count == 1_001)
        #expect(said[999] == "no memo #1099")
        #expect(
            said.last
                == "500 more references in this document name no memo; memo warns of the 1000 nearest the line last edited"
        )
    }

    /// A broken reference typed at the end of a document that already has more broken ones
    /// than are warned of is warned of at once, not hidden past the count.
    @Test func aBrokenReferenceTypedPastTheCountIsWarnedOf() throws {
        let uri = "file:///many.txt"
        try open(uri, "plaintext", (100...1_599).map { "#\($0)" }.joined(separator: "\n") + "\n")
        try change(uri, 1_500, 0, 0, "see #99999")
        let said = warnings(uri)
        #expect(said.contains("no memo #99999"))
        #expect(said.count == 1_001)
        #expect(said.last?.hasPrefix("501 more references in this document name no memo") == true)
    }

    /// A note of 100,000 lines and 5 MiB is served: warnings, links and hover to its end.
    @Test func aNoteOfFiveMebibytesIsServed() throws {
        let uri = "file:///big.md"
        let line = String(repeating: "words ", count: 8) + "#1 and #77"
        try open(uri, "markdown", String(repeating: line + "\n", count: 100_000))
        #expect(try links(uri).count == 100_000)
        let said = warnings(uri)
        #expect(said.count == 1_001 && said.first == "no memo #77", "\(said.prefix(2))")
        let hover = try harness.request(
            "textDocument/hover", ["textDocument": ["uri": uri], "position": ["line": 99_999, "character": 49]])
        #expect("\(hover["result"] ?? "none")".contains("memo 1"))
    }

    @Test func aMemoAddedAfterAWarningClearsItAtTheNextCheck() throws {
        let uri = "file:///notes.txt"
        try open(uri, "plaintext", "see #5")
        #expect(warnings(uri) == ["no memo #5"])
        try harness.request("memo/add", ["content": "memo 5"])
        #expect(try links(uri) == [[0, 4, 6]])
        #expect(warnings(uri).isEmpty)
    }
}
