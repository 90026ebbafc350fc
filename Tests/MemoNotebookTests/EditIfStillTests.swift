import MemoStore
import Testing

@testable import MemoNotebook

/// `editIfStill`, the server's save of a memo's own file, is a command like any other: it
/// runs through `Notebook.execute`, is undone as one edit, and writes nothing over a memo
/// that is no longer the version the saved text was based on.
@Suite("A conditional edit")
struct EditIfStillTests {
    let notebook: Notebook

    init() throws {
        notebook = try Notebook(
            location: .memory, clock: DeterministicClock(), uuids: SequentialUUIDs(), displayTime: .utc)
        _ = try notebook.execute(.add(text: "First text", tags: []))
    }

    private func memo() throws -> Memo {
        try #require(try notebook.memo(id: 1))
    }

    @Test func editsTheMemoWhileItIsTheBaseVersionAndUndoGivesTheTextBack() throws {
        let base = MemoFileBase(try memo())
        guard case .edited(let edited) = try notebook.execute(.editIfStill(id: 1, text: "Saved text", base: base))
        else {
            Issue.record("the memo was not edited")
            return
        }
        #expect(edited.content == "Saved text")
        #expect(try memo().content == "Saved text")
        _ = try notebook.execute(.undo)
        #expect(try memo().content == "First text")
    }

    @Test func leavesAMemoThatChangedSinceTheBaseAsItIs() throws {
        let base = MemoFileBase(try memo())
        _ = try notebook.execute(.edit(id: 1, text: "Changed elsewhere"))
        let history = try notebook.execute(.history(limit: nil))
        guard case .unchanged = try notebook.execute(.editIfStill(id: 1, text: "Saved text", base: base)) else {
            Issue.record("a memo that changed since the base was edited")
            return
        }
        #expect(try memo().content == "Changed elsewhere")
        guard case .history(let before) = history, case .history(let after) = try notebook.execute(.history(limit: nil))
        else {
            Issue.record("history gave no entries")
            return
        }
        #expect(after == before)
    }

    @Test func leavesTheMemoAsItIsWhenNoBaseIsKnown() throws {
        guard case .unchanged = try notebook.execute(.editIfStill(id: 1, text: "Saved text", base: nil)) else {
            Issue.record("a save with no known base was applied")
            return
        }
        #expect(try memo().content == "First text")
    }

    /// The command language does not spell it: only the server builds it.
    @Test func isNotACommandOfTheLanguage() {
        #expect(throws: CommandError.self) { try CommandParser.parse(line: "editIfStill 1 text") }
        #expect(!HelpText.text(for: nil).contains("editIfStill"))
    }
}
