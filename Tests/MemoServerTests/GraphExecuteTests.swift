import Testing

@testable import MemoServer

/// `memo/execute` draws the link graph as the command line does (docs/REFERENCE.md, Links):
/// the same options, the same dot.
@Suite("The link graph through the server")
struct GraphExecuteTests {
    @Test func executeTakesTheDrawingOptions() throws {
        let harness = try ServerHarness.initialized()
        func execute(_ line: String) throws -> String? {
            try harness.request("memo/execute", ["line": line]).result?["output"] as? String
        }
        _ = try execute("add Buy milk\nadd Plan #1\nadd lonely")
        #expect(
            try execute("graph --linked --direction BT --label-length 0") == """
                digraph memos {
                  graph [rankdir=BT, pack=true];
                  node [shape=box];
                  1 [label="#1"];
                  2 [label="#2"];
                  2 -> 1;
                }

                """)
        #expect(try execute("graph --format json --linked")?.contains(#""id":3"#) == false)
    }
}
