import Foundation
import MemoNotebookTestSupport
import MemoStore
import MemoTestSupport
import Testing

@testable import MemoNotebook

@Suite("History, undo and redo")
struct UndoTests {
    let scratch = TemporaryFolder()

    /// Every memo exactly (docs/REFERENCE.md's JSON object), ids included: what undo must give
    /// back.
    private func state(_ session: ScriptedNotebook) throws -> [String] {
        TextFile.lines(of: try session.json("list --asc"))
    }

    /// Runs `line` (an undo or a redo); every memo must then be exactly as in `expected`.
    private func expect(
        _ session: ScriptedNotebook, after line: String, toBe expected: [String],
        sourceLocation: SourceLocation = #_sourceLocation
    ) throws {
        try session.run(line)
        #expect(try state(session) == expected, sourceLocation: sourceLocation)
    }

    /// Each undoable command: undo gives back exactly the state before it (ids, uuids,
    /// dates, tags, text, and the search index); redo gives back the state after it.
    /// `update` (the server's `memo/update`) changes text and tags in one change: one undo
    /// gives both back, and the given tags become the memo's whole explicit set.
    @Test func updateIsOneChange() throws {
        let session = try ScriptedNotebook()
        try session.run("add --tag kept --tag old First memo")
        let before = try state(session)
        guard
            case .edited(let memo) = try session.notebook.execute(.update(id: 1, content: "New text", tags: ["fresh"]))
        else {
            Issue.record("update did not edit")
            return
        }
        #expect(memo.content == "New text")
        #expect(memo.tags == ["fresh"])
        try session.run("undo")
        #expect(try state(session) == before)
        guard case .edited(let same) = try session.notebook.execute(.update(id: 1, content: nil, tags: nil)) else {
            return
        }
        #expect(same.content == "First memo")
        #expect(throws: StoreError.self) { try session.notebook.execute(.update(id: 9, content: "x", tags: nil)) }
    }

    @Test(arguments: [
        "add --tag t Another memo @inline",
        "edit 2 Edited text @new",
        "delete 1 2",
        "tag 2 extra more",
        "untag 1 kept",
        "fixture sample"
    ])
    func undoAndRedoRestoreExactly(_ command: String) throws {
        let session = try ScriptedNotebook()
        try session.run(["add --tag kept First memo @shop", "add Second memo 旅行"])
        let before = try state(session)
        try session.run(command)
        let after = try state(session)
        #expect(after != before)
        try expect(session, after: "undo", toBe: before)
        #expect(try session.run("search 旅行").contains("Second memo"))
        try expect(session, after: "redo", toBe: after)
        try expect(session, after: "undo", toBe: before)
    }

    /// An import, adds and updates both, is one change: undo takes it all back.
    @Test func undoOfAnImport() throws {
        let session = try ScriptedNotebook()
        try session.run("add Original text")
        let before = try state(session)
        let file = try scratch.write(
            """
            {"uuid":"00000000-0000-4000-8000-000000000001","content":"Updated by the import","insertDate":"2000-01-01T00:00:00.000Z","updateDate":"2001-01-01T00:00:00.000Z"}
            {"content":"Added by the import @imported"}

            """, to: "changes.jsonl")
        try session.run("import \(file)")
        let after = try state(session)
        #expect(try session.run("history -n 1").contains("import    2 memos"))
        try expect(session, after: "undo", toBe: before)
        try expect(session, after: "redo", toBe: after)
    }

    /// Undo never destroys newer work: when another session changed the same memo later,
    /// undo refuses and names that change; once that one is undone, the first undo works.
    @Test func undoRefusesWhenALaterChangeTouchedTheSameMemo() throws {
        let store = try MemoStore.open(.memory)
        let first = try ScriptedNotebook(store: store), second = try ScriptedNotebook(store: store)
        try first.run("add Shared memo")
        try first.run("edit 1 Edited by the first session")
        try second.run("tag 1 from-second")
        try first.run("add Unrelated")
        #expect(try first.run("undo") == "undid change 4 (add \"Unrelated\")\n")
        #expect {
            try first.run("undo")
        } throws: { error in
            errorMessage(error)
                == "cannot undo change 2 (edit \"Edited by the first session\"): the later change 3 (tag \"Edited by the first session\") came from another process and touched the same memos; a one-shot 'memo undo' from the shell takes the store's latest change"
        }
        #expect(try store.memo(id: 1)?.tags == ["from-second"])
        try second.run("undo")
        try first.run("undo")
        #expect(try store.memo(id: 1)?.content == "Shared memo")
    }

    /// As a one-shot command, undo takes the store's latest change, whoever made it, and
    /// redo the one undone last, until a new change comes.
    @Test func oneShotUndoTakesTheStoresLatestChange() throws {
        let store = try MemoStore.open(.memory)
        let session = try ScriptedNotebook(store: store)
        try session.run("add one")
        try session.run("add two")
        try session.run("delete 1")
        let oneShot = { try ScriptedNotebook(store: store, scope: .oneShot) }
        #expect(try oneShot().run("undo") == "undid change 3 (delete \"one\")\n")
        #expect(try oneShot().run("undo") == "undid change 2 (add \"two\")\n")
        #expect(try oneShot().run("redo") == "redid change 2 (add \"two\")\n")
        #expect(try oneShot().run("redo") == "redid change 3 (delete \"one\")\n")
        #expect(throws: StoreError.nothingToRedo) { try oneShot().run("redo") }
        try oneShot().run("undo")
        try session.run("add three")
        #expect(throws: StoreError.nothingToRedo) { try oneShot().run("redo") }
        #expect(throws: CommandError.self) { try oneShot().run("begin") }
    }

    /// Messages that name a change quote a memo's first line: its control characters stay out.
    @Test func changeLabelsCarryNoControlCharacters() throws {
        let session = try ScriptedNotebook()
        _ = try session.notebook.tracking { try session.notebook.add("title\u{1B}]0;pwned\u{07} end", tags: []) }
        let undone = try session.run("undo")
        #expect(undone == "undid change 1 (add \"title]0;pwned end\")\n")
        #expect(throws: StoreError.self) { try session.run("undo") }
        #expect(
            try session.notebook.store.historyEntry(1)?.label.unicodeScalars.allSatisfy { $0.value >= 0x20 } == true)
    }

    @Test func rollbackLeavesNoHistoryAndNothingToUndo() throws {
        let session = try ScriptedNotebook()
        try session.run(["begin", "add discarded", "rollback"])
        #expect(try session.run("history") == "")
        #expect(throws: StoreError.nothingToUndo) { try session.run("undo") }
        #expect(try session.notebook.store.count() == 0)
    }

    @Test func historyInJSON() throws {
        let session = try ScriptedNotebook()
        try session.run("add one")
        try session.run("undo")
        let output = StringOutput()
        guard case .command(let command) = try CommandParser.parse(line: "history") else { return }
        try JSONRenderer().render(try session.notebook.execute(command), to: output)
        #expect(
            output.text == """
                {"seq":2,"at":"2000-01-01T00:00:01.000Z","kind":"undo","target":1,"memos":1,"summary":"one","undone":false}
                {"seq":1,"at":"2000-01-01T00:00:00.000Z","kind":"add","target":null,"memos":1,"summary":"one","undone":true}

                """)
    }
}
