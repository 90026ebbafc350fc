import Foundation
import Testing

@testable import MemoNotebook
@testable import MemoServer

/// `memo/execute` runs back-dating as any face does (docs/REFERENCE.md, Back-dating), and
/// what the server shows of a memo (hover over a reference) has the date it was moved to.
@Suite("Back-dating through the server")
struct BackdateExecuteTests {
    @Test func executeBackDatesAndMovesAndHoverShowsTheNewDate() throws {
        let harness = try ServerHarness.initialized()
        func execute(_ line: String) throws -> String? {
            try harness.request("memo/execute", ["line": line]).result?["output"] as? String
        }
        #expect(try execute("clock 2024-03-05T12:00:00Z\nadd today\nadd --date 2024-03-04T21:30:00Z last night") != nil)
        #expect(
            try execute("list --asc")
                == "#2  2024-03-04 21:30:00  last night\n#1  2024-03-05 12:00:00  today\n")
        #expect(try execute("edit 1 --date 2024-03-01T08:00:00Z") == "moved #1 to 2024-03-01 08:00:00\n")
        try harness.open("file:///n.md", text: "see #1\n")
        let hover = try harness.request(
            "textDocument/hover", ["textDocument": ["uri": "file:///n.md"], "position": ["line": 0, "character": 5]]
        ).result
        let shown = (hover?["contents"] as? [String: Any])?["value"] as? String ?? ""
        #expect(shown.contains("inserted: 2024-03-01 08:00:00"), "\(shown)")
        #expect(try execute("undo")?.hasSuffix(" (move \"today\")\n") == true)
    }
}
