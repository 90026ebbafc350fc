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
        _ = try harness.notify("textDocument/didOpen", ["textDocument": ["uri": uri, "languageId": "memo", "version": 1, "text": text]])
        return harness.notifications("textDocument/publishDiagnostics").last?["diagnostics"] as? [[String: Any]] ?? []
    }

    private func span(_ diagnostic: [String: Any]) -> [Int] {
        let range = diagnostic["range"] as? [String: [String: Int]]
        return [range?["start"]?["line"], range?["start"]?["character"], range?["end"]?["line"], range?["end"]?["character"]]
            .map { $0 ?? -1 }
    }

    @Test func diagnosticsNameTheOffendingWord() throws {
        try harness.initialize()
        let diagnostics = try open("""
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
        #expect(diagnostics.map { $0["message"] as? String } == [
            "unknown command 'frobnicate' (try 'help')",
            "unknown option '--bogus' for 'list'",
            "invalid memo id 'x2': expected a positive number",
            "invalid date '2024-13-01': use YYYY-MM-DD, YYYY-MM-DDTHH:MM[:SS[.sss]]Z (or +HH:MM), today or yesterday",
            "the heredoc never ends: no line 'EOF' follows",
        ])
        #expect(diagnostics.map(span) == [[2, 0, 2, 10], [3, 5, 3, 12], [4, 7, 4, 9], [8, 13, 8, 23], [9, 0, 9, 12]])
        #expect(diagnostics.allSatisfy { $0["severity"] as? Int == 1 && $0["source"] as? String == "memo" })
    }

    @Test func changesAndCloseRepublish() throws {
        try harness.initialize()
        #expect(try open("bogus").count == 1)
        _ = try harness.notify("textDocument/didChange", ["textDocument": ["uri": uri, "version": 2], "contentChanges": [["text": "count"]]])
        #expect((harness.notifications("textDocument/publishDiagnostics").last?["diagnostics"] as? [Any])?.isEmpty == true)
        _ = try harness.notify("textDocument/didClose", ["textDocument": ["uri": uri]])
        #expect(harness.notifications("textDocument/publishDiagnostics").count == 3)
    }

    @Test func positionsAreUTF16UnlessUTF8IsNegotiated() throws {
        let line = "list --tag 日本🎉 --bogus"
        try harness.initialize()
        #expect(try open(line).map(span) == [[0, 16, 0, 23]])

        let utf8 = try ServerHarness()
        try utf8.request("initialize", ["capabilities": ["general": ["positionEncodings": ["utf-8", "utf-16"]]]])
        _ = try utf8.notify("textDocument/didOpen", ["textDocument": ["uri": uri, "text": line]])
        let diagnostic = try #require((utf8.notifications("textDocument/publishDiagnostics").last?["diagnostics"] as? [[String: Any]])?.first)
        #expect(span(diagnostic) == [0, 22, 0, 29])
    }

    @Test func completion() throws {
        try harness.initialize()
        try harness.request("memo/add", ["content": "Ship it @work"])
        _ = try open("li\nlist --tag w\nfixture s\nadd x @wo\nshow ")
        func labels(_ line: Int, _ character: Int) throws -> [String] {
            let result = try harness.request("textDocument/completion", ["textDocument": ["uri": uri], "position": ["line": line, "character": character]]).result
            return (result?["items"] as? [[String: Any]])?.compactMap { $0["label"] as? String } ?? []
        }
        #expect(try labels(0, 2) == ["list"])
        #expect(try labels(1, 12) == ["work"])
        #expect(try labels(2, 9) == ["sample"])
        #expect(try labels(3, 9) == ["@work"])
        #expect(try labels(4, 5) == ["1"])
        let item = try #require((try harness.request("textDocument/completion", ["textDocument": ["uri": uri], "position": ["line": 1, "character": 12]]).result?["items"] as? [[String: Any]])?.first)
        let edit = try #require(item["textEdit"] as? [String: Any])
        #expect(edit["newText"] as? String == "work")
        #expect((edit["range"] as? [String: [String: Int]])?["start"]?["character"] == 11)
    }

    @Test func hoverShowsTheMemo() throws {
        try harness.initialize()
        try harness.request("memo/add", ["content": "Ship it @work"])
        _ = try open("show 1\nlist # see #1\nedit 2 text\ntag 1 1")
        func hover(_ line: Int, _ character: Int) throws -> String? {
            let result = try harness.request("textDocument/hover", ["textDocument": ["uri": uri], "position": ["line": line, "character": character]]).result
            return (result?["contents"] as? [String: Any])?["value"] as? String
        }
        #expect(try hover(0, 5)?.contains("#1\nuuid:     00000000-0000-4000-8000-000000000001") == true)
        #expect(try hover(0, 5)?.hasSuffix("Ship it @work\n```") == true)
        #expect(try hover(1, 12)?.contains("Ship it @work") == true)
        #expect(try hover(2, 5) == "No memo #2.")
        #expect(try hover(3, 6) == nil)
        #expect(try hover(0, 1) == nil)
    }
}
