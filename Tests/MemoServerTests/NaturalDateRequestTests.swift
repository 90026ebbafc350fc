import Foundation
import Testing

@testable import MemoNotebook
@testable import MemoServer

/// The server reads natural dates as the command line does: in `memo/execute` lines, several
/// words after an option, and in `memo/list`'s `since` and `until`, one string.
@Suite("Natural dates over the server")
struct NaturalDateRequestTests {
    @Test func naturalDatesFilterInExecutedLinesAndListParams() throws {
        let harness = try ServerHarness.initialized()
        try harness.request("memo/add", ["content": "just now"])
        func output(_ line: String) throws -> String? {
            try harness.request("memo/execute", ["line": line]).result?["output"] as? String
        }
        #expect(try output("count --since 2 days ago") == "1\n")
        #expect(try output("count --until 2 days ago") == "0\n")
        #expect(try output("count --on this week --tag none") == "0\n")
        #expect(try output("count --since 2 dayz ago") == "error: invalid date '2 dayz': use \(DateArgument.forms)\n")
        func listed(_ params: [String: Any]) throws -> Int? {
            (try harness.request("memo/list", params).result?["memos"] as? [[String: Any]])?.count
        }
        #expect(try listed(["since": "2 days ago"]) == 1)
        #expect(try listed(["until": "last week"]) == 0)
        let refused = try harness.request("memo/list", ["since": "last fortnight"])
        #expect(refused.errorMessage == "invalid params: invalid date 'last fortnight': use \(DateArgument.forms)")
    }
}
