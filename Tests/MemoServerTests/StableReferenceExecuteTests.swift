import Foundation
import MemoNotebookTestSupport
import MemoTestSupport
import Testing

@testable import MemoNotebook
@testable import MemoServer
@testable import MemoStore

/// `memo/execute` reads memo texts and takes memo ids as every face does (docs/REFERENCE.md,
/// Links): each `#ID` link as its memo's id in the server's store, and `memo:HANDLE` as an id.
@Suite("Stable references through memo/execute")
struct StableReferenceExecuteTests {
    let scratch = TemporaryFolder()

    @Test func executeReadsLinksByTheirIDsHereAndTakesHandles() throws {
        let here = try ScriptedNotebook(file: scratch.path + "/x.sqlite")
        try here.run(["add Alpha", "add see #1"])
        let handle = try here.notebook.handle(ofUUID: try #require(try here.notebook.memo(id: 1)).uuid)
        let there = try ScriptedNotebook(file: scratch.path + "/y.sqlite")
        try there.run(["add Y's own", "sync \(scratch.path)/x.sqlite"])
        let harness = try ServerHarness.initialized(store: MemoStore.open(.file(path: scratch.path + "/y.sqlite")))
        func execute(_ line: String) throws -> String {
            try harness.request("memo/execute", ["line": line]).result?["output"] as? String ?? ""
        }
        #expect(try execute("show 3").hasSuffix("\nsee #2\n"))
        #expect(try execute("list --links-to \(handle)").hasSuffix("  see #2\n"))
        #expect(try execute("show \(handle)").contains("handle:   \(handle)\n"))
        #expect(try execute("delete \(handle)") == "deleted #2; it was referenced by #3\n")
        let shown = try execute("show 3")
        #expect(shown.contains("→ \(handle) Alpha (deleted)") && shown.hasSuffix("\nsee \(handle)\n"), "\(shown)")
    }
}
