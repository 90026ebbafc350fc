import MemoNotebookTestSupport
import Testing

/// `memo graph`'s drawing (docs/REFERENCE.md, Links): dot packs the parts of a graph into a
/// block in the direction asked, labels show as much of a first line as asked, and `--linked`
/// leaves out the memos no link of the graph touches, in dot and JSON alike.
@Suite("The link graph's drawing")
struct GraphRenderingTests {
    /// #1 and #3 named by #2, #3 naming #2, #4 alone, #5 naming only itself.
    func linkedNotebook() throws -> ScriptedNotebook {
        let session = try ScriptedNotebook()
        try session.run([
            "add Buy milk and eggs", "add Weekly plan", "add Trip to Kyoto #2", "add lonely", "add Self #5",
            "edit 2 Weekly plan: #1 and #3"
        ])
        return session
    }

    @Test func byDefaultDotPacksThePartsLeftToRightWithSixtyColumnLabels() throws {
        let session = try linkedNotebook()
        try session.run("edit 4 " + String(repeating: "long ", count: 20))
        #expect(
            try session.run("graph") == """
                digraph memos {
                  graph [rankdir=LR, pack=true];
                  node [shape=box];
                  1 [label="#1 Buy milk and eggs"];
                  2 [label="#2 Weekly plan: #1 and #3"];
                  3 [label="#3 Trip to Kyoto #2"];
                  4 [label="#4 \(String(repeating: "long ", count: 11) + "long…")"];
                  5 [label="#5 Self #5"];
                  2 -> 1;
                  2 -> 3;
                  3 -> 2;
                  5 -> 5;
                }

                """)
    }

    @Test func directionLabelLengthAndLinkedShapeTheDot() throws {
        let session = try linkedNotebook()
        #expect(
            try session.run("graph --direction tb --label-length 0 --linked") == """
                digraph memos {
                  graph [rankdir=TB, pack=true];
                  node [shape=box];
                  1 [label="#1"];
                  2 [label="#2"];
                  3 [label="#3"];
                  2 -> 1;
                  2 -> 3;
                  3 -> 2;
                }

                """)
        #expect(try session.run("graph --direction BT --label-length 6").contains("rankdir=BT"))
        #expect(try session.run("graph --label-length 6").contains(##"2 [label="#2 Weekl…"];"##))
    }

    @Test func linkedCountsOnlyLinksBetweenMemosOfTheGraphInJSONToo() throws {
        let session = try linkedNotebook()
        let json = try session.run("graph --format json --linked")
        #expect(json.contains(#""edges":[{"from":2,"to":1},{"from":2,"to":3},{"from":3,"to":2}]"#))
        #expect(!json.contains(#""id":4"#) && !json.contains(#""id":5"#))
        // #5 names itself and #2 too: it is linked, and keeps its link to itself.
        try session.run("edit 5 Self #5 and #2")
        #expect(try session.run("graph --format json --linked").contains(#"{"from":5,"to":5}"#))
        // #3's only link within the memos --tag selects is none: #2 is left out.
        try session.run("tag 3 trip")
        #expect(try session.run("graph --format json --linked --tag trip") == "{\"nodes\":[],\"edges\":[]}\n")
    }

    @Test(arguments: [
        ("graph --direction up", "invalid direction 'up' for '--direction': use LR, TB, RL, BT"),
        ("graph --label-length -1", "invalid number '-1' for '--label-length': expected 0 or more"),
        ("graph --linked --orphan", "'--linked' cannot be combined with '--orphan'")
    ])
    func wrongDrawingOptionsAreRefused(line: String, message: String) throws {
        let session = try ScriptedNotebook()
        let error = #expect(throws: (any Error).self) { try session.run(line) }
        #expect(error.map { "\($0)" }?.contains(message) == true, "\(String(describing: error))")
    }
}
