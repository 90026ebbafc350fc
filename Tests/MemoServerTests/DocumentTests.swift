import Foundation
import Testing

@testable import MemoServer

@Suite("Language server for .memo files")
struct DocumentTests {
    let harness: ServerHarness
    let uri = "file:///notes.memo"

    init() throws {
        harness = try ServerHarness()
    }

    private func open(_ text: String) throws -> [[String: Any]] {
        try harness.open(uri, language: "memo", text: text)
        return harness.notifications("textDocument/publishDiagnostics").last?["diagnostics"] as? [[String: Any]] ?? []
    }

    /// The hover text at a position of the open document, or nil for no hover.
    private func hover(_ line: Int, _ character: Int) throws -> String? {
        let result = try harness.request(
            "textDocument/hover", ["textDocument": ["uri": uri], "position": ["line": line, "character": character]]
        ).result
        return (result?["contents"] as? [String: Any])?["value"] as? String
    }

    private func span(_ diagnostic: [String: Any]) -> [Int] {
        let range = diagnostic["range"] as? [String: [String: Int]]
        return [
            range?["start"]?["line"], range?["start"]?["character"], range?["end"]?["line"], range?["end"]?["character"]
        ]
        .map { $0 ?? -1 }
    }

    @Test func diagnosticsNameTheOffendingWord() throws {
        try harness.initialize()
        let diagnostics = try open(
            """
            # a command file
            add fine
            frobnicate now
            list --bogus
            show 1 x2
            add <<END
            frobnicate is text here
            END
            list --since 2024-13-01
            edit 1 <<EOF
            """)
        #expect(
            diagnostics.map { $0["message"] as? String } == [
                "unknown command 'frobnicate' (try 'help')",
                "unknown option '--bogus' for 'list'",
                "invalid memo id 'x2': expected a positive number, memo:HANDLE or memo:UUID",
                "invalid date '2024-13-01': use YYYY-MM-DD, YYYY-MM-DDTHH:MM[:SS[.sss]]Z (or +HH:MM), now, today, yesterday, tomorrow, a weekday (monday), last/this/next WEEKDAY, last/this/next week/month/year, an age (7d, 2w, 3m, 1y, 2 days ago, a week ago), and a time (21:30, 9pm, 9:30am, noon, midnight) alone for today or after a day (yesterday 21:30, yesterday at 9pm)",
                "the heredoc never ends: no line 'EOF' follows"
            ])
        #expect(diagnostics.map(span) == [[2, 0, 2, 10], [3, 5, 3, 12], [4, 7, 4, 9], [8, 13, 8, 23], [9, 0, 9, 12]])
        #expect(diagnostics.allSatisfy { $0["severity"] as? Int == 1 && $0["source"] as? String == "memo" })
    }

    /// A `--date` the command line would refuse once resolved (outside the years memo keeps)
    /// is reported too, not only what the parser rejects.
    @Test func aDateOutsideTheYearsMemoKeepsIsReported() throws {
        try harness.initialize()
        let diagnostics = try open(
            """
            add --date 0000-01-01 y
            add --date 2024-03-01 fine
            edit 1 --date 10000y <<END
            text
            END
            """)
        let outside = "for '--date': it falls outside the years 0001 to 9999, which memo counts in UTC"
        #expect(
            diagnostics.map { $0["message"] as? String } == [
                "invalid date '0000-01-01' \(outside)", "invalid date '10000y' \(outside)"
            ])
        #expect(diagnostics.map(span) == [[0, 0, 0, 23], [2, 0, 2, 26]])
    }

    @Test func changesAndCloseRepublish() throws {
        try harness.initialize()
        #expect(try open("bogus").count == 1)
        _ = try harness.notify(
            "textDocument/didChange",
            ["textDocument": ["uri": uri, "version": 2], "contentChanges": [["text": "count"]]])
        #expect(
            (harness.notifications("textDocument/publishDiagnostics").last?["diagnostics"] as? [Any])?.isEmpty == true)
        _ = try harness.notify("textDocument/didClose", ["textDocument": ["uri": uri]])
        #expect(harness.notifications("textDocument/publishDiagnostics").count == 3)
    }

    /// Command diagnostics and command completion are for memo command files only.
    @Test func otherDocumentsAreNotCommandFiles() throws {
        try harness.initialize()
        _ = try harness.notify(
            "textDocument/didOpen",
            [
                "textDocument": [
                    "uri": "file:///notes.md", "languageId": "markdown", "version": 3, "text": "See the notes\nli"
                ]
            ])
        let published = try #require(harness.notifications("textDocument/publishDiagnostics").last)
        #expect(published["uri"] as? String == "file:///notes.md")
        #expect((published["diagnostics"] as? [Any])?.isEmpty == true)
        let completion = try harness.request(
            "textDocument/completion",
            ["textDocument": ["uri": "file:///notes.md"], "position": ["line": 1, "character": 2]]
        ).result
        #expect((completion?["items"] as? [Any])?.isEmpty == true)
        _ = try harness.notify(
            "textDocument/didOpen",
            ["textDocument": ["uri": "file:///x.memo", "languageId": "plaintext", "version": 1, "text": "bogus"]])
        #expect((harness.notifications("textDocument/publishDiagnostics").last?["diagnostics"] as? [Any])?.count == 1)
    }

    /// Only `\n`, `\r\n` and `\r` end lines; other separators are characters of a line.
    @Test func onlyLSPLineEndsSplitLines() throws {
        try harness.initialize()
        let diagnostics = try open("add a\u{2028}b\u{2029}c\u{85}d\u{0B}e\u{0C}f\r\nbogus\rlist --x\ncount")
        #expect(diagnostics.map(span) == [[1, 0, 1, 5], [2, 5, 2, 8]])
    }

    /// Incremental changes edit the range they name (positions in the negotiated encoding),
    /// and diagnostics carry the document's version.
    @Test func incrementalChangesAndVersions() throws {
        let result = try harness.request("initialize", ["capabilities": [:]]).result
        let sync = (result?["capabilities"] as? [String: Any])?["textDocumentSync"] as? [String: Any]
        #expect(sync?["change"] as? Int == 2)
        _ = try harness.notify("initialized", [:])
        _ = try open("add 日本🎉 ok\ncount")
        #expect(harness.notifications("textDocument/publishDiagnostics").last?["version"] as? Int == 1)
        func change(_ version: Int, _ changes: [[String: Any]]) throws -> [[String: Any]] {
            _ = try harness.notify(
                "textDocument/didChange", ["textDocument": ["uri": uri, "version": version], "contentChanges": changes])
            #expect(harness.notifications("textDocument/publishDiagnostics").last?["version"] as? Int == version)
            return harness.notifications("textDocument/publishDiagnostics").last?["diagnostics"] as? [[String: Any]]
                ?? []
        }
        func range(_ l1: Int, _ c1: Int, _ l2: Int, _ c2: Int) -> [String: Any] {
            ["start": ["line": l1, "character": c1], "end": ["line": l2, "character": c2]]
        }
        #expect(try change(2, [["range": range(1, 0, 1, 5), "text": "frob"]]).map(span) == [[1, 0, 1, 4]])
        #expect(
            try change(3, [["range": range(0, 9, 0, 11), "text": "fine"], ["range": range(1, 0, 1, 4), "text": "tags"]])
                .isEmpty)
        #expect(try change(4, [["range": range(1, 4, 1, 4), "text": " x"]]).map(span) == [[1, 5, 1, 6]])
        #expect(try change(5, [["text": "count\nbogus"]]).map(span) == [[1, 0, 1, 5]])
        try harness.request("memo/add", ["content": "added"])
        let hover = try harness.request(
            "textDocument/hover", ["textDocument": ["uri": uri], "position": ["line": 0, "character": 1]]
        ).result
        #expect(hover == nil)
        _ = try change(6, [["range": range(0, 0, 1, 5), "text": "show 1 #1"]])
        let shown = try harness.request(
            "textDocument/hover", ["textDocument": ["uri": uri], "position": ["line": 0, "character": 8]]
        ).result
        #expect(((shown?["contents"] as? [String: Any])?["value"] as? String)?.contains("added") == true)
    }

    @Test func positionsAreUTF16UnlessUTF8IsNegotiated() throws {
        let line = "list --tag 日本🎉 --bogus"
        try harness.initialize()
        #expect(try open(line).map(span) == [[0, 16, 0, 23]])

        let utf8 = try ServerHarness()
        try utf8.request("initialize", ["capabilities": ["general": ["positionEncodings": ["utf-8", "utf-16"]]]])
        _ = try utf8.notify("textDocument/didOpen", ["textDocument": ["uri": uri, "text": line]])
        let diagnostic = try #require(
            (utf8.notifications("textDocument/publishDiagnostics").last?["diagnostics"] as? [[String: Any]])?.first)
        #expect(span(diagnostic) == [0, 22, 0, 29])
    }

    @Test func completion() throws {
        try harness.initialize()
        try harness.request("memo/add", ["content": "Ship it @work"])
        _ = try open("li\nlist --tag w\nfixture s\nadd x @wo\nshow ")
        func labels(_ line: Int, _ character: Int) throws -> [String] {
            let result = try harness.request(
                "textDocument/completion",
                ["textDocument": ["uri": uri], "position": ["line": line, "character": character]]
            ).result
            return (result?["items"] as? [[String: Any]])?.compactMap { $0["label"] as? String } ?? []
        }
        #expect(try labels(0, 2) == ["list", "links"])
        #expect(try labels(1, 12) == ["work"])
        #expect(try labels(2, 9) == ["sample"])
        #expect(try labels(3, 9) == ["@work"])
        #expect(try labels(4, 5) == ["1"])
        let item = try #require(
            (try harness.request(
                "textDocument/completion", ["textDocument": ["uri": uri], "position": ["line": 1, "character": 12]]
            ).result?["items"] as? [[String: Any]])?.first)
        let edit = try #require(item["textEdit"] as? [String: Any])
        #expect(edit["newText"] as? String == "work")
        #expect((edit["range"] as? [String: [String: Int]])?["start"]?["character"] == 11)
    }

    /// A cut list says so; ids sort by number; completing inside a word replaces all of it.
    @Test func completionIsHonestAboutCutsAndReplacesTheWholeWord() throws {
        try harness.initialize()
        for number in 1...60 { try harness.request("memo/add", ["content": "memo \(number)"]) }
        _ = try open("show \nlist")
        func complete(_ line: Int, _ character: Int) throws -> [String: Any]? {
            try harness.request(
                "textDocument/completion",
                ["textDocument": ["uri": uri], "position": ["line": line, "character": character]]
            ).result
        }
        let ids = try #require(try complete(0, 5))
        let items = try #require(ids["items"] as? [[String: Any]])
        #expect(items.count == 50)
        #expect(ids["isIncomplete"] as? Bool == true)
        let sorted = items.sorted { ($0["sortText"] as? String ?? "") < ($1["sortText"] as? String ?? "") }
        // The newest, and the first and last id in text order (1, 9), so what all candidates
        // share is no more than all matching ids share.
        #expect(sorted.compactMap { Int($0["label"] as? String ?? "") } == [1, 9] + Array(13...60))
        #expect(try complete(1, 2)?["isIncomplete"] as? Bool == false)
        let inWord = try #require(
            (try complete(1, 2)?["items"] as? [[String: Any]])?.first?["textEdit"] as? [String: Any])
        #expect(inWord["newText"] as? String == "list")
        #expect(
            inWord["range"] as? [String: [String: Int]] == [
                "start": ["line": 1, "character": 0], "end": ["line": 1, "character": 4]
            ])
    }

    /// References follow docs/REFERENCE.md, References in documents: `#ID` at word boundaries and
    /// `memo:UUID`; a memo holding a code fence stays inside the hover's block.
    @Test func hoverFollowsTheReferenceRule() throws {
        try harness.initialize()
        try harness.request("memo/add", ["content": "first ``` fence\n````"])
        try harness.request("memo/add", ["content": "second"])
        try harness.request("memo/add", ["content": "third"])
        _ = try open("see #2, (#1) and it's '#3 or memo:00000000-0000-4000-8000-000000000002.\n#+1 #-1 a#1 #1b")
        #expect(try hover(0, 5)?.contains("\nsecond\n") == true)
        #expect(try hover(0, 10)?.contains("first") == true)
        #expect(try hover(0, 25)?.contains("\nthird\n") == true)
        #expect(try hover(0, 35)?.contains("\nsecond\n") == true)
        for column in [1, 5, 9, 12] { #expect(try hover(1, column) == nil, "column \(column)") }
        let fenced = try #require(try hover(0, 10))
        #expect(fenced.hasPrefix("`````text\n") && fenced.contains("\n`````\n\nIts stable link"))
    }

    @Test func hoverShowsTheMemo() throws {
        try harness.initialize()
        try harness.request("memo/add", ["content": "Ship it @work"])
        _ = try open("show 1\nlist # see #1\nedit 2 text\ntag 1 1")
        #expect(try hover(0, 5)?.contains("#1\nuuid:     00000000-0000-4000-8000-000000000001") == true)
        #expect(try hover(0, 5)?.contains("Ship it @work\n```\n\nIts stable link") == true)
        #expect(try hover(1, 12)?.contains("Ship it @work") == true)
        #expect(try hover(2, 5) == "No memo #2.")
        #expect(try hover(3, 6) == nil)
        #expect(try hover(0, 1) == nil)
    }
}
