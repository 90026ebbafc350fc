import Foundation
import MemoNotebookTestSupport
import MemoStore
import MemoTestSupport
import Testing

@testable import MemoNotebook
@testable import MemoServer

/// Stable references in documents (docs/REFERENCE.md, References in documents): outside the
/// store the server writes `memo:HANDLE`, which names the same memo on every synced machine;
/// in the store's own texts `#ID` stays. Moving a selection answers only after the editor
/// answered its edit.
@Suite("Stable links in the server")
struct StableLinkTests {
    let scratch = TemporaryFolder()

    /// A server on a store file holding `memos`, made with random uuids as a person's store is.
    func server(_ lines: [String], file: String = "store.sqlite", appliesEdits: Bool = false) throws -> ServerHarness {
        let path = scratch.path + "/" + file
        try ScriptedNotebook(file: path).run(lines)
        let harness = try ServerHarness(store: try MemoStore.open(.file(path: path)))
        try harness.initialize(appliesEdits ? ["workspace": ["applyEdit": true]] : [:])
        return harness
    }

    /// What memo `id` is written as outside the store: its handle.
    func handle(_ harness: ServerHarness, _ id: Int64) throws -> String {
        let memo = try #require(try harness.notebook.memo(id: id))
        return try harness.notebook.handle(ofUUID: memo.uuid).description
    }

    func completion(_ harness: ServerHarness, _ uri: String, line: Int = 0, _ character: Int) throws -> [[String: Any]]
    {
        let reply = try harness.request(
            "textDocument/completion",
            ["textDocument": ["uri": uri], "position": ["line": line, "character": character]])
        return reply.result?["items"] as? [[String: Any]] ?? []
    }

    func newText(_ item: [String: Any]) -> String? {
        (item["textEdit"] as? [String: Any])?["newText"] as? String
    }

    func editRange(_ item: [String: Any]) -> [Int] {
        let range = (item["textEdit"] as? [String: Any])?["range"] as? [String: [String: Int]] ?? [:]
        return [range["start"]?["character"] ?? -1, range["end"]?["character"] ?? -1]
    }

    /// After `#` in a Markdown note the items insert `memo:HANDLE` over the whole reference,
    /// the `#` included; after `memo:` too, narrowed by the handle's digits or by words. In a
    /// command file and in a memo's own file, `#` completes `#ID` as before.
    @Test func completionOutsideTheStoreInsertsTheStableForm() throws {
        let harness = try server(["add Buy milk", "add Dentist on Tuesday", "add Read the paper"])
        let dentist = try handle(harness, 2)
        try harness.open("file:///n.md", text: "x #Den\nsee #\nmemo:\(dentist.dropFirst(5).prefix(3))\nmemo:Den\n")
        let words = try completion(harness, "file:///n.md", 6)
        #expect(words.map(newText) == [dentist])
        #expect(words.first.map(editRange) == [2, 6], "the # is replaced too")
        let all = try completion(harness, "file:///n.md", line: 1, 5)
        #expect(Set(all.compactMap(newText)) == Set([try handle(harness, 1), dentist, try handle(harness, 3)]))
        let digits = try completion(harness, "file:///n.md", line: 2, 8)
        #expect(digits.compactMap(newText).contains(dentist))
        #expect(digits.first.map(editRange) == [0, 8], "memo: is replaced too")
        #expect(digits.allSatisfy { newText($0)?.hasPrefix(String(dentist.prefix(8))) == true })
        let afterPrefixWords = try completion(harness, "file:///n.md", line: 3, 8)
        #expect(afterPrefixWords.map(newText) == [dentist])

        try harness.open("file:///c.memo", language: "memo", text: "add see #Den")
        #expect(try completion(harness, "file:///c.memo", 12).map(newText) == ["#2"])
        let ownFile = try #require(try harness.fileURIOfMemo1())
        try harness.open(ownFile, text: "Buy milk #Den")
        #expect(try completion(harness, ownFile, 13).map(newText) == ["#2"])
    }

    /// "Make memo links stable" rewrites each `#ID` of a note naming a memo to its handle, in
    /// the action's own edit; a `#ID` naming no memo stays. Command files get no such action.
    @Test func makeMemoLinksStableRewritesTheDocumentsIDs() throws {
        let harness = try server(["add Alpha", "add Beta"])
        try harness.open("file:///n.md", text: "see #1 and #99\nthen #2, #1 again\n")
        func actions(_ uri: String) throws -> [[String: Any]] {
            let reply = try harness.request(
                "textDocument/codeAction",
                [
                    "textDocument": ["uri": uri], "context": ["diagnostics": []],
                    "range": ["start": ["line": 0, "character": 0], "end": ["line": 0, "character": 0]]
                ])
            return reply["result"] as? [[String: Any]] ?? []
        }
        let action = try #require(
            try actions("file:///n.md").first { $0["title"] as? String == "Make memo links stable" })
        #expect(action["command"] == nil, "the edit is the action's own")
        let edit = try #require(action["edit"] as? [String: Any])
        let changes = try #require((edit["changes"] as? [String: Any])?["file:///n.md"] as? [[String: Any]])
        let rewritten = changes.map { change -> [Int] in
            let range = change["range"] as? [String: [String: Int]] ?? [:]
            return [range["start"]?["line"] ?? -1, range["start"]?["character"] ?? -1, range["end"]?["character"] ?? -1]
        }
        #expect(rewritten == [[0, 4, 6], [1, 5, 7], [1, 9, 11]])
        #expect(
            changes.compactMap { $0["newText"] as? String } == [
                try handle(harness, 1), try handle(harness, 2), try handle(harness, 1)
            ])
        try harness.open("file:///c.memo", language: "memo", text: "add see #1\n")
        #expect(try actions("file:///c.memo").isEmpty)
        try harness.open("file:///none.md", text: "see #99 and memo:ffffffff\n")
        #expect(try actions("file:///none.md").isEmpty)
    }

    /// The eglot freeze: a move's `workspace/executeCommand` is answered only after the
    /// editor answered the `workspace/applyEdit` request, and nothing is notified (no
    /// diagnostics) in between; the edit puts `memo:HANDLE` in a note, `#ID` in a command file.
    @Test func aMoveIsAnsweredAfterTheEditorAnsweredItsEdit() throws {
        let harness = try server(["add Alpha"], appliesEdits: true)
        try harness.open("file:///n.md", text: "move me\nsee #1 and #99\n")
        func move(_ uri: String, commandID: Int) throws -> (edit: [String: Any], sent: [[String: Any]]) {
            let selection: [String: Any] = [
                "uri": uri, "range": ["start": ["line": 0, "character": 0], "end": ["line": 0, "character": 7]]
            ]
            let request: [String: Any] = [
                "jsonrpc": "2.0", "id": commandID, "method": "workspace/executeCommand",
                "params": ["command": "memo.moveSelection", "arguments": [selection]]
            ]
            let sent = harness.receive(Array(try JSONSerialization.data(withJSONObject: request)))
                .compactMap { $0 as? [String: Any] }
            #expect(!sent.contains { $0["id"] as? Int == commandID }, "answered before the editor answered the edit")
            let asked = try #require(sent.first { $0["method"] as? String == "workspace/applyEdit" })
            #expect(sent.last?["method"] as? String == "workspace/applyEdit", "sent after the edit request: \(sent)")
            let answer = #"{"jsonrpc":"2.0","id":"\#(try #require(asked["id"] as? String))","result":{"applied":true}}"#
            let after = harness.receive(answer).compactMap { $0 as? [String: Any] }
            #expect(after.first?["id"] as? Int == commandID, "the command is answered first: \(after)")
            #expect((after.first?["result"] as? [String: Any])?["content"] as? String == "move me")
            let edit = try #require(
                ((((asked["params"] as? [String: Any])?["edit"] as? [String: Any])?["changes"] as? [String: Any])?[uri]
                    as? [[String: Any]])?.first)
            return (edit, after)
        }
        let (noteEdit, after) = try move("file:///n.md", commandID: 7)
        let moved = try handle(harness, 2)
        #expect(noteEdit["newText"] as? String == moved)
        #expect(after.dropFirst().contains { $0["method"] as? String == "textDocument/publishDiagnostics" })
        try harness.open("file:///c.memo", language: "memo", text: "move me\n")
        #expect(try move("file:///c.memo", commandID: 8).edit["newText"] as? String == "#3")
    }

    /// Hover and inlay hints show a memo's text as read here and its handle; a handle that
    /// several memos share warns which, one that names none warns as a missing id does.
    @Test func hoverHintsAndWarningsSpeakOfHandles() throws {
        let path = scratch.path + "/twins.jsonl"
        try
            ([
                #"{"uuid":"abcdef01-2345-4000-8000-000000000001","content":"first twin"}"#,
                #"{"uuid":"abcdef01-2399-4000-8000-000000000002","content":"second twin"}"#
            ].joined(separator: "\n") + "\n").write(toFile: path, atomically: true, encoding: .utf8)
        let harness = try server(["import \(path)", "add see #1 first"])
        try harness.open("file:///n.md", text: "memo:abcdef01 memo:abcdef01234 memo:99999999\n#3\n")
        #expect(
            harness.diagnostics(for: "file:///n.md") == [
                "memo:abcdef01 names 2 memos: #2 (abcdef01-2399-4000-8000-000000000002), "
                    + "#1 (abcdef01-2345-4000-8000-000000000001); write more of the uuid's digits",
                "no memo memo:99999999"
            ])
        let ambiguous = try harness.request(
            "textDocument/hover", ["textDocument": ["uri": "file:///n.md"], "position": ["line": 0, "character": 3]])
        #expect(
            ((ambiguous.result?["contents"] as? [String: Any])?["value"] as? String)?.hasPrefix(
                "memo:abcdef01 names 2 memos: #2") == true)
        let hover = try harness.request(
            "textDocument/hover", ["textDocument": ["uri": "file:///n.md"], "position": ["line": 1, "character": 1]])
        let shown = try #require((hover.result?["contents"] as? [String: Any])?["value"] as? String)
        #expect(shown.contains("see #1 first"))
        #expect(shown.contains("`\(try handle(harness, 3))`"))
    }

    /// Two stores synced: a Markdown note and a memo text name memos by handle, and on
    /// both machines definition and hover of each reference reach the same uuid, though the
    /// memos' ids differ; the memo text written on X reads with Y's ids on Y.
    @Test func stableReferencesMeanTheSameMemoOnBothMachines() throws {
        let xPath = scratch.path + "/x.sqlite", yPath = scratch.path + "/y.sqlite"
        let x = try ScriptedNotebook(file: xPath), y = try ScriptedNotebook(file: yPath)
        try x.run(["add Alpha", "add Beta"])
        try y.run(["add Y's own"])
        let alpha = try #require(try x.notebook.memo(id: 1)), beta = try #require(try x.notebook.memo(id: 2))
        let alphaHandle = try x.notebook.handle(ofUUID: alpha.uuid)
        try x.run("add see \(alphaHandle) and #2")
        let see = try #require(try x.notebook.memo(id: 3))
        try y.run("sync \(xPath)")
        try x.run("sync \(yPath)")
        let note = "Plan: \(alphaHandle), memo:\(beta.uuid)\nmemo:\(see.uuid)\n"
        for (name, path) in [("x", xPath), ("y", yPath)] {
            let server = try ServerHarness.initialized(store: try MemoStore.open(.file(path: path)))
            try server.open("file:///plan.md", text: note)
            func uuid(at uri: String, _ line: Int, _ character: Int) throws -> String? {
                let hover = try server.request(
                    "textDocument/hover",
                    ["textDocument": ["uri": uri], "position": ["line": line, "character": character]])
                let shown = (hover.result?["contents"] as? [String: Any])?["value"] as? String ?? ""
                let definition = try server.request(
                    "textDocument/definition",
                    ["textDocument": ["uri": uri], "position": ["line": line, "character": character]])
                let file = try #require(definition.result?["uri"] as? String)
                let id = try #require(Int64(URL(string: file)!.deletingPathExtension().lastPathComponent))
                let memo = try #require(try server.notebook.memo(id: id))
                #expect(shown.contains("uuid:     \(memo.uuid)"), "hover and definition agree on \(name)")
                return memo.uuid
            }
            #expect(try uuid(at: "file:///plan.md", 0, 8) == alpha.uuid, "\(name)")
            #expect(try uuid(at: "file:///plan.md", 0, 24) == beta.uuid, "\(name)")
            // The memo text written on X reads with this machine's id of Beta, in hints and hover.
            let betaHere = try #require(try server.notebook.memo(uuid: beta.uuid)).id
            let hints = try server.request(
                "textDocument/inlayHint",
                [
                    "textDocument": ["uri": "file:///plan.md"],
                    "range": ["start": ["line": 0, "character": 0], "end": ["line": 2, "character": 0]]
                ])
            #expect(
                (hints["result"] as? [[String: Any]])?.compactMap { $0["label"] as? String } == [
                    "Alpha", "Beta", "see \(alphaHandle) and #\(betaHere)"
                ], "\(name)")
            #expect(name == "x" ? betaHere == 2 : betaHere == 3)
            #expect(try uuid(at: "file:///plan.md", 1, 3) == see.uuid)
            let symbols = try server.request("workspace/symbol", ["query": "see"])["result"] as? [[String: Any]]
            let seeFile = try #require((symbols?.first?["location"] as? [String: Any])?["uri"] as? String)
            let seeHere = try #require(try server.notebook.memo(uuid: see.uuid))
            try server.open(seeFile, text: try server.notebook.readableText(of: seeHere))
            #expect(try uuid(at: seeFile, 0, 6) == alpha.uuid, "\(name): the memo text's handle")
            #expect(try uuid(at: seeFile, 0, alphaHandle.description.count + 10) == beta.uuid, "\(name): its #2")
        }
    }

    /// A memo's own file holds its text as read here: written on X where Alpha is #1, "see
    /// #1" reads "see #2" on Y, where Alpha is #2. Saving that text unchanged is no edit; an
    /// edit of it is saved, its `#2` still Alpha.
    @Test func aMemosOwnFileHoldsItsReadableText() throws {
        let xPath = scratch.path + "/x.sqlite", yPath = scratch.path + "/y.sqlite"
        let x = try ScriptedNotebook(file: xPath), y = try ScriptedNotebook(file: yPath)
        try x.run(["add Alpha", "add see #1"])
        try y.run(["add Y's own", "sync \(xPath)"])
        let alpha = try #require(try x.notebook.memo(id: 1)), see = try #require(try x.notebook.memo(id: 2))
        let harness = try ServerHarness.initialized(store: try MemoStore.open(.file(path: yPath)))
        try harness.open("file:///n.md", text: "memo:\(see.uuid)\n")
        let definition = try harness.request(
            "textDocument/definition",
            ["textDocument": ["uri": "file:///n.md"], "position": ["line": 0, "character": 3]])
        let uri = try #require(definition.result?["uri"] as? String)
        #expect(try String(contentsOf: try #require(URL(string: uri)), encoding: .utf8) == "see #2")
        try harness.open(uri, text: "see #2")
        _ = try harness.notify("textDocument/didSave", ["textDocument": ["uri": uri], "text": "see #2\n"])
        let here = try #require(try harness.notebook.memo(uuid: see.uuid))
        #expect(here.content == "see #1" && here.updateDate == nil, "an unchanged save is no edit")
        #expect(harness.diagnostics(for: uri).isEmpty)
        _ = try harness.notify("textDocument/didSave", ["textDocument": ["uri": uri], "text": "see #2 today\n"])
        #expect(harness.diagnostics(for: uri).isEmpty)
        #expect(try harness.notebook.memo(id: here.id)?.content == "see #2 today")
        #expect(try harness.notebook.links(of: here.id).outgoing.map { $0.target?.uuid } == [alpha.uuid])
    }

    /// In a memo's own file a `#ID` is the memo with that id here, as the file reads, except
    /// one the memo's text holds as words ("Rule #1", unlinked), which names none there.
    @Test func inAMemosOwnFileWordsAreNoReference() throws {
        let path = scratch.path + "/words.sqlite"
        let session = try ScriptedNotebook(file: path)
        try session.run(["add Alpha", "add Rule #1, and see #1", "links 2 --check --unlink"])
        let owner = try #require(try session.notebook.memo(id: 2))
        let harness = try ServerHarness.initialized(store: try MemoStore.open(.file(path: path)))
        try harness.open("file:///n.md", text: "memo:\(owner.uuid)\n")
        let definition = try harness.request(
            "textDocument/definition",
            ["textDocument": ["uri": "file:///n.md"], "position": ["line": 0, "character": 3]])
        let uri = try #require(definition.result?["uri"] as? String)
        try harness.open(uri, text: "Rule #1, and see #1\nsee #1 too")
        func leadsToAMemo(_ line: Int, _ character: Int) throws -> Bool {
            let definition = try harness.request(
                "textDocument/definition",
                ["textDocument": ["uri": uri], "position": ["line": line, "character": character]])
            return definition.result?["uri"] != nil
        }
        #expect(try leadsToAMemo(1, 5), "a #1 typed in the file is memo #1")
        // Both "#1" of the first line read alike, one words and one a link: a link reads so.
        #expect(try leadsToAMemo(0, 18))
        try session.run("edit 2 Rule #1 alone")
        try session.run("links 2 --unlink")
        try harness.open(uri, text: "Rule #1 alone")
        let links = try harness.notebook.links(of: 2)
        #expect(try !leadsToAMemo(0, 6), "words name no memo in the file either: \(links)")
    }
}
