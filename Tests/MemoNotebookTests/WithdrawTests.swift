import MemoNotebookTestSupport
import MemoStore
import Testing

@testable import MemoNotebook

/// `withdraw`, the server's taking back of a move the editor refused, is a command like any
/// other: it runs through `Notebook.execute`, undoes the session's change in the store, and
/// leaves nothing on the session's undo or redo that brings that change back.
@Suite("A withdrawn change")
struct WithdrawTests {
    let session: ScriptedNotebook

    init() throws {
        session = try ScriptedNotebook()
        try session.run(["add First text", "add Moved text"])
    }

    @Test func undoesTheChangeAndNoUndoOrRedoOfTheSessionBringsItBack() throws {
        guard case .undone(let entry) = try session.notebook.execute(.withdraw(change: 2)) else {
            Issue.record("the change was not withdrawn")
            return
        }
        #expect(entry.sequence == 2 && entry.isUndone)
        #expect(try session.run("count") == "1\n")
        #expect(try session.run("undo") == "undid change 1 (add \"First text\")\n")
        #expect(throws: StoreError.self) { try session.run("undo") }
        #expect(try session.run("redo") == "redid change 1 (add \"First text\")\n")
        #expect(throws: StoreError.self) { try session.run("redo") }
        #expect(try session.run("count") == "1\n")
    }

    @Test func isRefusedWhenALaterChangeToItsMemoForbidsTheUndo() throws {
        try session.run("edit 2 Edited after the move")
        #expect(throws: StoreError.self) { try session.notebook.execute(.withdraw(change: 2)) }
        #expect(try session.notebook.memo(id: 2)?.content == "Edited after the move")
    }

    /// The command language does not spell it: only the server builds it.
    @Test func isNotACommandOfTheLanguage() throws {
        #expect(throws: CommandError.self) { try CommandParser.parse(line: "withdraw 2") }
        #expect(!HelpText.text(for: nil).contains("withdraw"))
        #expect(Completer(data: session.notebook).complete("withdr").items.isEmpty)
    }
}
