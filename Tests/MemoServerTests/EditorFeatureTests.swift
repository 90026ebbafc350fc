import Foundation
import Testing

@testable import MemoServer

/// Code lenses, document symbols, rename, `memo.new` and the refresh requests
/// (docs/REFERENCE.md, References in documents): what zk and marksman users reach for.
@Suite("Code lenses, symbols, rename, memo.new and refreshes")
struct EditorFeatureTests {
    let harness: ServerHarness

    init() throws {
        harness = try ServerHarness()
    }

    private func add(_ texts: String...) throws {
        for text in texts { try harness.request("memo/add", ["content": text]) }
    }

    private func content(of id: Int) throws -> String? {
        try harness.request("memo/get", ["id": id]).result?["content"] as? String
    }

    private func at(_ uri: String, _ line: Int, _ character: Int) -> [String: Any] {
        ["textDocument": ["uri": uri], "position": ["line": line, "character": character]]
    }

    private func array(_ reply: [String: Any]) -> [[String: Any]] {
        reply["result"] as? [[String: Any]] ?? []
    }

    /// The requests (not notifications) the server sent with `method`.
    private func requests(_ method: String) -> [[String: Any]] {
        harness.sent.compactMap { $0 as? [String: Any] }.filter { $0["method"] as? String == method && $0["id"] != nil }
    }

    private static func range(_ value: Any?) -> [Int] {
        let range = value as? [String: Any]
        let start = range?["start"] as? [String: Any], end = range?["end"] as? [String: Any]
        return [start?["line"], start?["character"], end?["line"], end?["character"]].map { $0 as? Int ?? -1 }
    }

    // MARK: Code lenses

    @Test func lensesCountTheBacklinksOfEachReferencedMemoAndOfAMemosOwnFile() throws {
        try harness.initialize()
        try add("Alpha", "Beta, after #1", "Gamma: #1 and #2")
        try harness.open("file:///n.md", text: "See #1 and #2.\nnothing here\n#1 #1 #99 #3\n")
        let lenses = array(try harness.request("textDocument/codeLens", ["textDocument": ["uri": "file:///n.md"]]))
        let shown = lenses.map { lens -> String in
            let command = lens["command"] as? [String: Any]
            #expect(command?["command"] is String, "Neovim and VS Code show only lenses with a command")
            return "\(Self.range(lens["range"])) \(command?["title"] as? String ?? "?")"
        }
        #expect(
            shown == [
                "[0, 4, 0, 6] #1: 2 backlinks", "[0, 11, 0, 13] #2: 1 backlink", "[2, 0, 2, 2] #1: 2 backlinks",
                "[2, 10, 2, 12] #3: no backlinks"
            ])
        let file = try #require(try harness.fileURIOfMemo1())
        try harness.open(file, text: "Alpha")
        let own = array(try harness.request("textDocument/codeLens", ["textDocument": ["uri": file]]))
        #expect(own.map { ($0["command"] as? [String: Any])?["title"] as? String } == ["2 backlinks"])
        #expect(own.map { Self.range($0["range"]) } == [[0, 0, 0, 5]])
    }

    // MARK: Document symbols

    static let outline = """
        ---
        title: front matter, not a heading
        ---
        # Top
        #12 is a reference, not a heading
        ## Sub one
        ```
        # in a fenced block
        ```
        Setext title
        ============
        ### Deep ###
        ## Sub two
        #hashtag
        """

    @Test func markdownHeadingsAreAnOutlineForClientsThatTakeTrees() throws {
        try harness.initialize(["textDocument": ["documentSymbol": ["hierarchicalDocumentSymbolSupport": true]]])
        try harness.open("file:///o.md", text: Self.outline)
        let symbols = array(
            try harness.request("textDocument/documentSymbol", ["textDocument": ["uri": "file:///o.md"]]))
        func tree(_ symbols: [[String: Any]]) -> [String] {
            symbols.map { symbol in
                let children = tree(symbol["children"] as? [[String: Any]] ?? [])
                return (symbol["name"] as? String ?? "?")
                    + (children.isEmpty ? "" : " [" + children.joined(separator: ", ") + "]")
            }
        }
        #expect(tree(symbols) == ["Top [Sub one]", "Setext title [Deep, Sub two]"])
        #expect(
            Self.range(symbols.first?["range"]) == [3, 0, 8, 3], "Top's section ends before the next level-1 heading")
        #expect(Self.range(symbols.first?["selectionRange"]) == [3, 2, 3, 5])
        #expect(Self.range(symbols.last?["selectionRange"]) == [9, 0, 9, 12])
        let deep = (symbols.last?["children"] as? [[String: Any]])?.first
        #expect(Self.range(deep?["selectionRange"]) == [11, 4, 11, 8], "the closing #s are not the name")
    }

    @Test func clientsWithoutTreesGetAFlatListNamingEachParent() throws {
        try harness.initialize()
        try harness.open("file:///o.md", text: Self.outline)
        let symbols = array(
            try harness.request("textDocument/documentSymbol", ["textDocument": ["uri": "file:///o.md"]]))
        #expect(symbols.map { $0["name"] as? String ?? "?" } == ["Top", "Sub one", "Setext title", "Deep", "Sub two"])
        #expect(
            symbols.map { $0["containerName"] as? String ?? "-" } == ["-", "Top", "-", "Setext title", "Setext title"])
        #expect(symbols.allSatisfy { ($0["location"] as? [String: Any])?["uri"] as? String == "file:///o.md" })
        try harness.open("file:///plain.txt", language: "plaintext", text: "# not Markdown\n")
        #expect(
            array(try harness.request("textDocument/documentSymbol", ["textDocument": ["uri": "file:///plain.txt"]]))
                .isEmpty)
    }

    @Test func aMemosOwnFileIsOneSymbolItsTitle() throws {
        try harness.initialize(["textDocument": ["documentSymbol": ["hierarchicalDocumentSymbolSupport": true]]])
        try add("Alpha title\n# not a heading here\nmore")
        let file = try #require(try harness.fileURIOfMemo1())
        try harness.open(file, text: "Alpha title\n# not a heading here\nmore")
        let symbols = array(try harness.request("textDocument/documentSymbol", ["textDocument": ["uri": file]]))
        #expect(symbols.map { $0["name"] as? String } == ["Alpha title"])
        #expect(symbols.map { $0["kind"] as? Int } == [1])
        #expect(symbols.map { Self.range($0["range"]) } == [[0, 0, 2, 4]])
    }

    // MARK: Rename

    @Test func renameOnAReferenceRetitlesTheMemoInOneUndoableEdit() throws {
        try harness.initialize(["textDocument": ["rename": ["prepareSupport": true]]])
        try add("Alpha\nbody stays")
        try harness.open("file:///n.md", text: "See #1.\n")
        let prepared = try #require(try harness.request("textDocument/prepareRename", at("file:///n.md", 0, 5)).result)
        #expect(Self.range(prepared["range"]) == [0, 4, 0, 6])
        #expect(prepared["placeholder"] as? String == "Alpha")
        #expect(try harness.request("textDocument/prepareRename", at("file:///n.md", 0, 1))["result"] is NSNull)

        var params = at("file:///n.md", 0, 5)
        params["newName"] = "Omega"
        let edit = try #require(try harness.request("textDocument/rename", params).result)
        #expect((edit["changes"] as? [String: Any])?.isEmpty == true, "no document but the memo's own file changes")
        #expect(try content(of: 1) == "Omega\nbody stays")
        try harness.request("memo/execute", ["line": "undo"])
        #expect(try content(of: 1) == "Alpha\nbody stays", "undo takes the rename back as one edit")
    }

    @Test func renameUpdatesTheMemosOwnFileTheEditorHasOpen() throws {
        try harness.initialize()
        try add("Alpha\nbody")
        let file = try #require(try harness.fileURIOfMemo1())
        try harness.open(file, text: "Alpha\nbody")
        var params = at("file:///n.md", 0, 1)
        params["newName"] = "Omega"
        let edit = try #require(try harness.request("textDocument/rename", params).result)
        let edits = (edit["changes"] as? [String: Any])?[file] as? [[String: Any]]
        #expect(edits?.map { Self.range($0["range"]) } == [[0, 0, 0, 5]])
        #expect(edits?.map { $0["newText"] as? String } == ["Omega"])
        #expect(try content(of: 1) == "Omega\nbody")
    }

    /// To a client that takes versioned edits, the edit of the open file names the version
    /// the server knows: an editor that has changes it did not send yet does not apply it over
    /// them (Neovim 0.7 sends another buffer's changes after a delay).
    @Test func renameNamesTheVersionOfTheOpenFileItEdits() throws {
        try harness.initialize(["workspace": ["workspaceEdit": ["documentChanges": true]]])
        try add("Alpha\nbody")
        let file = try #require(try harness.fileURIOfMemo1())
        try harness.open(file, text: "Alpha\nbody")
        _ = try harness.notify(
            "textDocument/didChange",
            ["textDocument": ["uri": file, "version": 7], "contentChanges": [["text": "Alpha\nbody, edited"]]])
        try harness.open("file:///n.md", text: "See #1.\n")
        var params = at("file:///n.md", 0, 5)
        params["newName"] = "Omega"
        let edit = try #require(try harness.request("textDocument/rename", params).result)
        let changes = try #require(edit["documentChanges"] as? [[String: Any]])
        #expect(changes.count == 1)
        let document = changes.first?["textDocument"] as? [String: Any]
        #expect(document?["uri"] as? String == file)
        #expect(document?["version"] as? Int == 7)
        let edits = changes.first?["edits"] as? [[String: Any]]
        #expect(edits?.map { Self.range($0["range"]) } == [[0, 0, 0, 5]])
        #expect(edits?.map { $0["newText"] as? String } == ["Omega"])
    }

    /// The editor's text of the file, with the new title the rename put in it, is based on
    /// the renamed memo: a save of it, with edits made before or after, is not refused as stale.
    @Test func aSaveOfTheOpenFileAfterARenameKeepsTheNewTitleAndTheEdits() throws {
        try harness.initialize()
        try add("Alpha\nbody")
        let file = try #require(try harness.fileURIOfMemo1())
        try harness.open(file, text: "Alpha\nbody")
        _ = try harness.notify(
            "textDocument/didChange",
            ["textDocument": ["uri": file, "version": 2], "contentChanges": [["text": "Alpha\nbody, edited"]]])
        var params = at("file:///n.md", 0, 1)
        params["newName"] = "Omega"
        try harness.request("textDocument/rename", params)
        // The editor applies the rename's edit, then saves.
        _ = try harness.notify(
            "textDocument/didChange",
            ["textDocument": ["uri": file, "version": 3], "contentChanges": [["text": "Omega\nbody, edited"]]])
        _ = try harness.notify("textDocument/didSave", ["textDocument": ["uri": file], "text": "Omega\nbody, edited"])
        #expect(harness.diagnostics(for: file).isEmpty)
        #expect(try content(of: 1) == "Omega\nbody, edited")
    }

    /// A rename never replaces a line the user typed: with the file's title changed in the
    /// editor and not saved, the rename is refused and neither the store nor the editor changes.
    @Test func aRenameIsRefusedWhileTheOpenFileHasUnsavedChangesToItsTitle() throws {
        try harness.initialize()
        try add("Two cites #1\nbody")
        let file = try #require(try harness.fileURIOfMemo1())
        try harness.open(file, text: "Two cites #1\nbody")
        let typed = "Draft heading typed\n\nTwo cites #1\nbody\nunsaved"
        _ = try harness.notify(
            "textDocument/didChange",
            ["textDocument": ["uri": file, "version": 2], "contentChanges": [["text": typed]]])
        try harness.open("file:///n.md", text: "See #1.\n")
        var params = at("file:///n.md", 0, 5)
        params["newName"] = "Two renamed"
        let reply = try harness.request("textDocument/rename", params)
        #expect(reply.errorCode == -32602)
        #expect(reply.errorMessage == "memo #1's file has unsaved changes to its title: save or undo them first")
        #expect(try content(of: 1) == "Two cites #1\nbody")

        // Undone, the title is the store's again: the rename edits exactly that line.
        _ = try harness.notify(
            "textDocument/didChange",
            ["textDocument": ["uri": file, "version": 3], "contentChanges": [["text": "\nTwo cites #1\nbody\nunsaved"]]]
        )
        let edit = try #require(try harness.request("textDocument/rename", params).result)
        let edits = (edit["changes"] as? [String: Any])?[file] as? [[String: Any]]
        #expect(edits?.map { Self.range($0["range"]) } == [[1, 0, 1, 12]])
        #expect(try content(of: 1) == "Two renamed\nbody")
    }

    @Test func aRenameThatCannotBeIsAnErrorTheEditorShows() throws {
        try harness.initialize()
        try add("Alpha")
        try harness.open("file:///n.md", text: "See #1 and #99, not a reference\n")
        for (position, name, message) in [
            (5, "", "a memo's title cannot be empty"),
            (5, "two\nlines", "a memo's title is one line: the new name holds a line break"),
            (12, "Other", "no memo #99 to rename"),
            (20, "Other", "there is no memo reference here to rename")
        ] {
            var params = at("file:///n.md", 0, position)
            params["newName"] = name
            let reply = try harness.request("textDocument/rename", params)
            #expect(reply.errorCode == -32602)
            #expect(reply.errorMessage == message)
        }
        #expect(try content(of: 1) == "Alpha")
    }

    @Test func prepareProviderIsAdvertisedOnlyToClientsThatAsk() throws {
        let asking = try ServerHarness()
        let offered = try asking.request(
            "initialize", ["capabilities": ["textDocument": ["rename": ["prepareSupport": true]]]])
        let capabilities = offered.result?["capabilities"] as? [String: Any]
        #expect((capabilities?["renameProvider"] as? [String: Any])?["prepareProvider"] as? Bool == true)
        #expect(capabilities?["documentSymbolProvider"] as? Bool == true)
        #expect((capabilities?["codeLensProvider"] as? [String: Any])?["resolveProvider"] as? Bool == false)
        let commands = (capabilities?["executeCommandProvider"] as? [String: Any])?["commands"] as? [String]
        #expect(commands?.contains("memo.new") == true)
        let plain = try harness.request("initialize", ["capabilities": [:]])
        #expect((plain.result?["capabilities"] as? [String: Any])?["renameProvider"] as? Bool == true)
    }

    // MARK: memo.new

    @Test func newMemoOpensItsFileWhereTheClientShowsDocuments() throws {
        try harness.initialize(["window": ["showDocument": ["support": true]]])
        let reply = try harness.request("workspace/executeCommand", ["command": "memo.new", "arguments": ["An idea"]])
        let result = try #require(reply.result)
        #expect(result["id"] as? Int == 1)
        let uri = try #require(result["uri"] as? String)
        #expect(try content(of: 1) == "An idea")
        #expect(try String(contentsOf: URL(string: uri)!, encoding: .utf8) == "An idea")
        let shown = requests("window/showDocument").compactMap { $0["params"] as? [String: Any] }
        #expect(shown.map { $0["uri"] as? String } == [uri])
        #expect(shown.map { $0["takeFocus"] as? Bool } == [true])
        #expect(harness.notifications("window/showMessage").isEmpty)
    }

    @Test func newMemoNamesItsFileToOtherClientsAndHasADefaultText() throws {
        try harness.initialize()
        let reply = try harness.request("workspace/executeCommand", ["command": "memo.new"])
        let uri = try #require(reply.result?["uri"] as? String)
        #expect(try content(of: 1) == "New memo")
        #expect(requests("window/showDocument").isEmpty)
        let messages = harness.notifications("window/showMessage").compactMap { $0["message"] as? String }
        #expect(messages == ["Added memo #1; its file is \(URL(string: uri)!.path)"])
        let blank = try harness.request("workspace/executeCommand", ["command": "memo.new", "arguments": ["  "]])
        #expect(blank.errorCode == -32602)
    }

    // MARK: Refreshes

    @Test func aStoreChangeUnderOpenDocumentsAsksClientsThatTakeItToRefresh() throws {
        try harness.initialize([
            "workspace": ["codeLens": ["refreshSupport": true], "inlayHint": ["refreshSupport": true]]
        ])
        try add("Alpha")
        #expect(requests("workspace/codeLens/refresh").isEmpty, "no document is open")
        try harness.open("file:///n.md", text: "#1\n")
        try add("Beta, after #1")
        #expect(requests("workspace/inlayHint/refresh").count == 1)
        #expect(requests("workspace/codeLens/refresh").count == 1)
        // The client's answers are taken and ignored.
        for request in requests("workspace/codeLens/refresh") + requests("workspace/inlayHint/refresh") {
            let id = try #require(request["id"] as? String)
            #expect(harness.receive(#"{"jsonrpc":"2.0","id":"\#(id)","result":null}"#).isEmpty)
        }
    }

    @Test func clientsThatDoNotTakeRefreshesAreNotAsked() throws {
        try harness.initialize()
        try harness.open("file:///n.md", text: "#1\n")
        try add("Alpha")
        #expect(requests("workspace/inlayHint/refresh").isEmpty && requests("workspace/codeLens/refresh").isEmpty)
    }
}
