import Foundation
import Testing

/// `memo/execute` has no editor to open: `today` and `add --template` are refused as `add`
/// without text is, in one clear line, and change nothing (docs/REFERENCE.md, The daily memo).
@Suite("memo/execute of the commands that write in an editor")
struct EditorCommandTests {
    @Test func todayAndAddTemplateAreRefusedInOneLine() throws {
        let harness = try ServerHarness()
        try harness.initialize()
        let refusals = [
            "today":
                "error: 'today' needs an editor, which scripts and the server do not have: add --tag daily TEXT, or edit ID TEXT\n",
            "add --template meeting Weekly sync":
                "error: 'add --template' needs an editor, which scripts and the server do not have: give the text: add TEXT\n",
            "add --template ../x":
                "error: invalid template name '../x': the name of a file in the templates folder (no '/', not starting with '.')\n"
        ]
        for (line, refusal) in refusals {
            let answer = try #require(try harness.request("memo/execute", ["line": line]).result)
            #expect(answer["ok"] as? Bool == false, "\(line)")
            #expect(answer["output"] as? String == refusal)
        }
        #expect(
            try harness.request("memo/execute", ["line": "add --tag daily written here"]).result?["ok"] as? Bool == true
        )
        #expect(
            try harness.request("memo/execute", ["line": "count --tag daily --on today"]).result?["output"] as? String
                == "1\n")
    }
}
