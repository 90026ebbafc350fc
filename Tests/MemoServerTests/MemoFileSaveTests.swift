import Foundation
import MemoTestSupport
import Testing

@testable import MemoServer
@testable import MemoStore

/// Saves of a memo's own file (docs/REFERENCE.md, Memos' own files): the base file on disk
/// says which version the file's text came from, so a save is refused only over a memo that
/// changed since, whatever server, restart or reload came in between.
@Suite("Saves of the memos' own files")
struct MemoFileSaveTests {
    let folder = TemporaryFolder()
    let filesFolder = TemporaryFolder()
    var storePath: String { folder.file("store.sqlite") }

    /// A server on the store file, sharing the memo files' folder with every other one here;
    /// `waitingWhenBusy: false` fails a write at once while another process holds the store.
    func server(waitingWhenBusy: Bool = true) throws -> ServerHarness {
        let store = try MemoStore.open(.file(path: storePath))
        if !waitingWhenBusy { store.database.setBusyTimeout(milliseconds: 0) }
        return try ServerHarness.initialized(store: store, filesFolder: filesFolder)
    }

    /// The store's #1 as another process reads it.
    func memo1() throws -> String? {
        try MemoStore.open(.file(path: storePath)).memo(id: 1)?.content
    }

    func change(_ harness: ServerHarness, _ uri: String, to text: String, version: Int = 2) throws {
        _ = try harness.notify(
            "textDocument/didChange",
            ["textDocument": ["uri": uri, "version": version], "contentChanges": [["text": text]]])
    }

    /// What an editor does on saving: writes the file, then tells the server.
    func save(_ harness: ServerHarness, _ uri: String, _ text: String) throws {
        try text.write(toFile: try #require(URL(string: uri)?.path), atomically: true, encoding: .utf8)
        _ = try harness.notify("textDocument/didSave", ["textDocument": ["uri": uri], "text": text])
    }

    /// Two servers on the store, whose #1 is "Four", each with #1's file open in its editor
    /// (two editors reached it by its definition).
    func twoEditorsWithMemo1Open() throws -> (ServerHarness, ServerHarness, uri: String, path: String) {
        let first = try server(), second = try server()
        try first.request("memo/add", ["content": "Four"])
        let uri = try #require(try first.fileURIOfMemo1())
        #expect(try second.fileURIOfMemo1() == uri)
        let path = try #require(URL(string: uri)?.path)
        try first.open(uri, text: "Four")
        try second.open(uri, text: "Four")
        return (first, second, uri, path)
    }

    /// Whether the last save through `harness` was refused because the store changed since
    /// the file was written.
    func isRefusedAsStale(_ harness: ServerHarness, _ uri: String) -> Bool {
        errors(harness, uri).first?.contains("changed in the store since this file was written") == true
    }

    func errors(_ harness: ServerHarness, _ uri: String) -> [String] {
        let published = harness.notifications("textDocument/publishDiagnostics").last { $0["uri"] as? String == uri }
        return (published?["diagnostics"] as? [[String: Any]] ?? []).filter { $0["severity"] as? Int == 1 }
            .compactMap { $0["message"] as? String }
    }

    @Test func aRestartedServerTakesTheSaveOfAnEditTheEditorHeldAcrossTheRestart() throws {
        let first = try server()
        try first.request("memo/add", ["content": "first"])
        let uri = try #require(try first.fileURIOfMemo1())
        try first.open(uri, text: "first")
        try change(first, uri, to: "first, edited before the restart")
        first.server.finish()

        // The editor reconnects: it opens the file again with the text it holds, unsaved.
        let restarted = try server()
        try restarted.open(uri, text: "first, edited before the restart")
        try save(restarted, uri, "first, edited before the restart\n")
        #expect(errors(restarted, uri) == [])
        #expect(try memo1() == "first, edited before the restart")
    }

    @Test func aFileEditedOnDiskThenOpenedSavesItsEdit() throws {
        let harness = try server()
        try harness.request("memo/add", ["content": "first"])
        let uri = try #require(try harness.fileURIOfMemo1())
        try "first, edited on disk\n".write(
            toFile: try #require(URL(string: uri)?.path), atomically: true, encoding: .utf8)
        try harness.open(uri, text: "first, edited on disk\n")
        try save(harness, uri, "first, edited on disk and in the editor\n")
        #expect(errors(harness, uri) == [])
        #expect(try memo1() == "first, edited on disk and in the editor")
    }

    @Test func aSaveTheBusyStoreCouldNotTakeIsTakenOnTheNextSave() throws {
        let harness = try server(waitingWhenBusy: false)
        try harness.request("memo/add", ["content": "first"])
        let uri = try #require(try harness.fileURIOfMemo1())
        try harness.open(uri, text: "first")
        let other = try Database(path: storePath)
        try other.execute("BEGIN IMMEDIATE")
        try save(harness, uri, "first, saved while busy\n")
        #expect(errors(harness, uri).count == 1)
        #expect(errors(harness, uri).first?.contains("the save was not applied") == true)
        try other.execute("ROLLBACK")

        // The editor reopens the file it wrote (or the server restarts): the next save is taken.
        _ = try harness.notify("textDocument/didClose", ["textDocument": ["uri": uri]])
        try harness.open(uri, text: "first, saved while busy\n")
        try save(harness, uri, "first, saved while busy, then again\n")
        #expect(errors(harness, uri) == [])
        #expect(try memo1() == "first, saved while busy, then again")
    }

    /// The real protection: the file was rewritten to the store's newer version while the
    /// editor held the older text. Its save is refused, so is a save after the server
    /// restarts (which puts the store's text back in the file) by the editor that still holds
    /// its text, and the advice — go to the definition again, reload — gives a text that saves.
    @Test func aStaleSaveStaysRefusedUntilTheDefinitionRewritesTheFile() throws {
        let first = try server()
        try first.request("memo/add", ["content": "first"])
        let uri = try #require(try first.fileURIOfMemo1())
        try first.open(uri, text: "first")
        let second = try server()
        try second.request("memo/update", ["id": 1, "content": "changed by the second"])
        #expect(try second.fileURIOfMemo1() == uri)

        try save(first, uri, "first, stale edit\n")
        #expect(errors(first, uri).first?.contains("changed in the store since this file was written") == true)
        first.server.finish()
        let restarted = try server()
        let path = try #require(URL(string: uri)?.path)
        #expect(try String(contentsOfFile: path, encoding: .utf8) == "changed by the second")
        try restarted.open(uri, text: "first, stale edit\n")
        try save(restarted, uri, "first, stale edit, saved again\n")
        #expect(errors(restarted, uri).first?.contains("changed in the store since this file was written") == true)
        #expect(try memo1() == "changed by the second")

        // The advice: the definition rewrites the file, the editor reloads it, a save is taken.
        #expect(try restarted.fileURIOfMemo1() == uri)
        #expect(try String(contentsOfFile: path, encoding: .utf8) == "changed by the second")
        _ = try restarted.notify("textDocument/didClose", ["textDocument": ["uri": uri]])
        try restarted.open(uri, text: "changed by the second")
        try save(restarted, uri, "changed by the second, then the first\n")
        #expect(errors(restarted, uri) == [])
        #expect(try memo1() == "changed by the second, then the first")
    }

    /// An editor that writes a byte-order mark (Neovim's 'bomb', "UTF-8 with BOM") saves the
    /// memo's text, not a mark before it: memo reads every file so.
    @Test func aSavedFilesByteOrderMarkIsNotKeptInTheMemo() throws {
        let harness = try server()
        try harness.request("memo/add", ["content": "first"])
        let uri = try #require(try harness.fileURIOfMemo1())
        try "\u{FEFF}first, saved with a mark\n".write(
            toFile: try #require(URL(string: uri)?.path), atomically: true, encoding: .utf8)
        _ = try harness.notify("textDocument/didSave", ["textDocument": ["uri": uri]])
        #expect(errors(harness, uri) == [])
        #expect(try memo1() == "first, saved with a mark")
    }

    /// Two servers on one store, both with #1's file open (two editors reached it by its
    /// definition). The first saves; the second's save of its older text is refused. The
    /// advice works: the definition rewrites the file with the current text and its base, and
    /// the editor's reload of it (a didChange to that text, or a close and open) saves.
    @Test func aSaveRefusedBecauseAnotherServerSavedFirstIsTakenAfterTheAdvice() throws {
        let (first, second, uri, path) = try twoEditorsWithMemo1Open()
        try save(first, uri, "Four\nA1\n")
        try save(second, uri, "Four\nB1\n")
        #expect(isRefusedAsStale(second, uri))
        #expect(try String(contentsOfFile: path, encoding: .utf8) == "Four\nB1\n", "the refused text stays on disk")
        #expect(try memo1() == "Four\nA1")

        #expect(try second.fileURIOfMemo1() == uri)
        #expect(try String(contentsOfFile: path, encoding: .utf8) == "Four\nA1")
        try change(second, uri, to: "Four\nA1", version: 3)
        try save(second, uri, "Four\nA1\nB edit of the current text\n")
        #expect(errors(second, uri) == [])
        #expect(try memo1() == "Four\nA1\nB edit of the current text")
    }

    /// Closed by both editors, the file follows the store: a new server finds the store's
    /// text there, not the refused one, and a save of an edit of it is taken.
    @Test func aFileClosedAfterARefusedSaveFollowsTheStore() throws {
        let (first, second, uri, path) = try twoEditorsWithMemo1Open()
        try save(first, uri, "Four\nIMPORTANT A CHANGE\n")
        _ = try first.notify("textDocument/didClose", ["textDocument": ["uri": uri]])
        try save(second, uri, "Four\nstale B\n")
        #expect(isRefusedAsStale(second, uri))
        _ = try second.notify("textDocument/didClose", ["textDocument": ["uri": uri]])
        first.server.finish()
        second.server.finish()

        let third = try server()
        #expect(try String(contentsOfFile: path, encoding: .utf8) == "Four\nIMPORTANT A CHANGE")
        try third.open(uri, text: try String(contentsOfFile: path, encoding: .utf8))
        try save(third, uri, "Four\nIMPORTANT A CHANGE\nC appends\n")
        #expect(errors(third, uri) == [])
        #expect(try memo1() == "Four\nIMPORTANT A CHANGE\nC appends")
    }

    /// The editors quit without closing the file (eglot and Neovim end the server, no
    /// didClose): a new server finds the refused text and puts the store's text in its place,
    /// keeping its base, so an editor that reconnects with the refused text still has its
    /// save refused, and one that opens the file as it now is saves its edit.
    @Test func aFileLeftAfterARefusedSaveFollowsTheStoreOnceANewServerStarts() throws {
        let (first, second, uri, path) = try twoEditorsWithMemo1Open()
        try save(first, uri, "Four\nIMPORTANT A CHANGE\n")
        try save(second, uri, "Four\nstale B\n")
        #expect(isRefusedAsStale(second, uri))
        #expect(try String(contentsOfFile: path, encoding: .utf8) == "Four\nstale B\n")
        first.server.finish()
        second.server.finish()

        let reconnected = try server()
        #expect(try String(contentsOfFile: path, encoding: .utf8) == "Four\nIMPORTANT A CHANGE")
        try reconnected.open(uri, text: "Four\nstale B\n")
        try save(reconnected, uri, "Four\nstale B, edited\n")
        #expect(errors(reconnected, uri).first?.contains("changed in the store since this file was written") == true)
        #expect(try memo1() == "Four\nIMPORTANT A CHANGE")
        reconnected.server.finish()

        let third = try server()
        #expect(try String(contentsOfFile: path, encoding: .utf8) == "Four\nIMPORTANT A CHANGE")
        try third.open(uri, text: try String(contentsOfFile: path, encoding: .utf8))
        try save(third, uri, "Four\nIMPORTANT A CHANGE\nC appends\n")
        #expect(errors(third, uri) == [])
        #expect(try memo1() == "Four\nIMPORTANT A CHANGE\nC appends")
    }

    /// Requests of an editor that write wait for another process's lock a few seconds, less
    /// than an editor waits for an answer (eglot: 10 s), then say the store is busy; the
    /// connection then waits as long as before for the notebook's methods.
    @Test func aRenameOnABusyStoreAnswersBusyBeforeTheEditorGivesUp() throws {
        let store = try MemoStore.open(.file(path: storePath))
        let harness = try ServerHarness.initialized(store: store, filesFolder: filesFolder)
        try harness.request("memo/add", ["content": "Alpha"])
        try harness.open("file:///n.md", text: "See #1.\n")
        let other = try Database(path: storePath)
        try other.execute("BEGIN IMMEDIATE")
        let started = ContinuousClock.now
        let reply = try harness.request(
            "textDocument/rename",
            ["textDocument": ["uri": "file:///n.md"], "position": ["line": 0, "character": 5], "newName": "Omega"])
        let waited = ContinuousClock.now - started
        try other.execute("ROLLBACK")
        #expect(reply.errorCode == -32803)
        #expect(reply.errorMessage?.contains("busy") == true)
        #expect(waited < .seconds(6), "answered after \(waited), past an editor's request timeout")
        #expect(try store.database.integer("PRAGMA busy_timeout") == 10_000)
    }
}
