import Testing

@testable import MemoNotebook
@testable import MemoServer

/// `edit` without an id and `tag --rename` through `memo/execute` (docs/REFERENCE.md, Editing
/// several memos at once): the server has no editor, so the bulk edit is refused, saying
/// so, and changes nothing; a rename runs as any command.
@Suite("Bulk edits and renames through memo/execute")
struct BulkEditExecuteTests {
    let harness: ServerHarness

    init() throws {
        harness = try ServerHarness.initialized()
        _ = try harness.request("memo/execute", ["line": "add one @work\nadd two @work"])
    }

    func execute(_ line: String) throws -> (ok: Bool?, output: String?) {
        let result = try harness.request("memo/execute", ["line": line]).result
        return (result?["ok"] as? Bool, result?["output"] as? String)
    }

    @Test func aBulkEditFailsAsEditWithoutTextAndChangesNothing() throws {
        let single = try execute("edit 1")
        #expect(single.ok == false)
        #expect(single.output == "error: 'edit' needs the new text\n")
        let bulk = try execute("edit --tag work")
        #expect(bulk.ok == false)
        #expect(
            bulk.output
                == "error: 'edit' needs an editor, which scripts and the server do not have: edit ID TEXT, one memo at a time\n"
        )
        #expect(try execute("list --asc").output?.contains("  one @work") == true)
        #expect(try execute("edit --tag nothing").output == "nothing to edit: no memo matches\n")
    }

    @Test func aRenameRunsAndOneUndoTakesItBack() throws {
        #expect(try execute("tag --rename work job").output == "renamed @work to @job on 2 memos\n")
        #expect(try execute("tags").output == "@job  2\n")
        #expect(try execute("undo").output?.hasPrefix("undid change 2 (rename-tag ") == true)
        #expect(try execute("tags").output == "@work  2\n")
    }
}
