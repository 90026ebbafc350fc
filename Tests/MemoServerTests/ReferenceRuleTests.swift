import Foundation
import Testing
@testable import MemoServer

/// What counts as a memo reference in a document of each language (SPEC §8): not a `#` in a
/// URL or after `/`, not an HTML character reference, not a hex colour in style sheets and
/// markup, and, in Markdown, not code in spans or fenced blocks. Shown through the links the
/// server gives: every reference to an existing memo links to its file.
@Suite("The reference rule in documents")
struct ReferenceRuleTests {
    let harness: ServerHarness

    init() throws {
        harness = try ServerHarness()
        try harness.initialize()
        for number in 1...4 { try harness.request("memo/add", ["content": "memo \(number)"]) }
    }

    private func open(_ uri: String, _ language: String, _ text: String) throws {
        _ = try harness.notify("textDocument/didOpen", ["textDocument": ["uri": uri, "languageId": language, "version": 1, "text": text]])
    }

    private func change(_ uri: String, _ line: Int, _ from: Int, _ to: Int, _ text: String) throws {
        _ = try harness.notify("textDocument/didChange", [
            "textDocument": ["uri": uri, "version": 2],
            "contentChanges": [["range": ["start": ["line": line, "character": from], "end": ["line": line, "character": to]], "text": text]],
        ])
    }

    /// The linked references as (line, start, end).
    private func links(_ uri: String) throws -> [[Int]] {
        let reply = try harness.request("textDocument/documentLink", ["textDocument": ["uri": uri]])
        return (reply["result"] as? [[String: Any]] ?? []).map { link in
            let range = link["range"] as? [String: [String: Int]]
            return [range?["start"]?["line"] ?? -1, range?["start"]?["character"] ?? -1, range?["end"]?["character"] ?? -1]
        }
    }

    private func warnings(_ uri: String) -> [String] {
        let published = harness.notifications("textDocument/publishDiagnostics").last { $0["uri"] as? String == uri }
        return (published?["diagnostics"] as? [[String: Any]] ?? []).compactMap { $0["message"] as? String }
    }

    @Test func urlsAndCharacterReferencesHoldNoReferences() throws {
        let uri = "file:///notes.txt"
        try open(uri, "plaintext", "https://x/#12 https://github.com/o/r/issues/#2 a/#3 &#1; (see #4) http://h.com/p?q#1")
        #expect(try links(uri) == [[0, 62, 64]])
        #expect(warnings(uri).isEmpty)
    }

    @Test(arguments: [("file:///style.css", "css"), ("file:///page.html", "html"), ("file:///x.scss", "")])
    func hexColoursInStyleSheetsAndMarkupAreNoReferences(_ uri: String, _ language: String) throws {
        try open(uri, language, "color: #333; background: #1234; border: #123456 #12345678; see #2 and #12345")
        #expect(try links(uri) == [[0, 63, 65]])
        #expect(warnings(uri) == ["no memo #12345"])
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

    @Test func aMemoAddedAfterAWarningClearsItAtTheNextCheck() throws {
        let uri = "file:///notes.txt"
        try open(uri, "plaintext", "see #5")
        #expect(warnings(uri) == ["no memo #5"])
        try harness.request("memo/add", ["content": "memo 5"])
        #expect(try links(uri) == [[0, 4, 6]])
        #expect(warnings(uri).isEmpty)
    }
}
