import Foundation
import MemoNotebook
import MemoNotebookTestSupport
import MemoStore
import MemoTestSupport

@testable import MemoServer

/// A server on an in-memory (or given) store, with what it sent captured as parsed JSON.
final class ServerHarness {
    let notebook: Notebook
    /// Where the server keeps the memos' own files (a restarted server is given its
    /// predecessor's).
    let filesFolder: TemporaryFolder
    private(set) var sent: [Any] = []
    private(set) var server: MemoServer!

    init(store: MemoStore? = nil, filesFolder: TemporaryFolder = TemporaryFolder()) throws {
        self.filesFolder = filesFolder
        notebook = try ScriptedNotebook(store: store).notebook
        server = MemoServer(
            notebook: notebook, memoFilesFolder: filesFolder.file("open"),
            send: { [unowned self] value in
                let parsed = try? JSONSerialization.jsonObject(with: Data(value.serialized.utf8))
                sent.append(parsed ?? NSNull())
            }, log: { _ in })
    }

    /// A server on an in-memory (or given) store, past `initialize`: ready for requests.
    static func initialized(
        store: MemoStore? = nil, filesFolder: TemporaryFolder = TemporaryFolder()
    ) throws -> ServerHarness {
        let harness = try ServerHarness(store: store, filesFolder: filesFolder)
        try harness.initialize()
        return harness
    }

    /// Sends a raw body, then lets the server report watch changes as the transport does once
    /// input pauses; returns what the server sent back.
    @discardableResult
    func receive(_ body: String) -> [Any] {
        receive(Array(body.utf8))
    }

    @discardableResult
    func receive(_ body: [UInt8]) -> [Any] {
        let before = sent.count
        server.receive(body)
        server.tick()
        return Array(sent[before...])
    }

    private var nextID = 100

    /// Sends a request; returns its response object.
    @discardableResult
    func request(_ method: String, _ params: [String: Any]? = nil) throws -> [String: Any] {
        nextID += 1
        var message: [String: Any] = ["jsonrpc": "2.0", "id": nextID, "method": method]
        if let params { message["params"] = params }
        let replies = receive(Array(try JSONSerialization.data(withJSONObject: message)))
        return replies.compactMap { $0 as? [String: Any] }.first { ($0["id"] as? Int) == nextID } ?? [:]
    }

    func notify(_ method: String, _ params: [String: Any]) throws -> [Any] {
        let message: [String: Any] = ["jsonrpc": "2.0", "method": method, "params": params]
        return receive(Array(try JSONSerialization.data(withJSONObject: message)))
    }

    func initialize(_ capabilities: [String: Any] = [:]) throws {
        try request("initialize", ["capabilities": capabilities])
        _ = try notify("initialized", [:])
    }

    /// The notifications sent so far with `method`, as their params.
    func notifications(_ method: String) -> [[String: Any]] {
        sent.compactMap { $0 as? [String: Any] }.filter { $0["method"] as? String == method }
            .compactMap { $0["params"] as? [String: Any] }
    }
}

extension ServerHarness {
    /// Opens the document `uri` with `text`, as an editor does (version 1); what the server
    /// sent back.
    @discardableResult
    func open(_ uri: String, language: String = "markdown", text: String) throws -> [Any] {
        try notify(
            "textDocument/didOpen",
            ["textDocument": ["uri": uri, "languageId": language, "version": 1, "text": text]])
    }

    /// The URI of memo #1's own file, as go to definition on `#1` in a note gives it.
    func fileURIOfMemo1() throws -> String? {
        try open("file:///n.md", text: "#1\n")
        let location = try request(
            "textDocument/definition",
            ["textDocument": ["uri": "file:///n.md"], "position": ["line": 0, "character": 1]])
        return location.result?["uri"] as? String
    }

    /// The messages of the diagnostics last published for `uri`.
    func diagnostics(for uri: String) -> [String] {
        let published = notifications("textDocument/publishDiagnostics").last { $0["uri"] as? String == uri }
        return (published?["diagnostics"] as? [[String: Any]] ?? []).compactMap { $0["message"] as? String }
    }
}

extension Dictionary where Key == String, Value == Any {
    var errorCode: Int? { (self["error"] as? [String: Any])?["code"] as? Int }
    var errorMessage: String? { (self["error"] as? [String: Any])?["message"] as? String }
    var result: [String: Any]? { self["result"] as? [String: Any] }
}
