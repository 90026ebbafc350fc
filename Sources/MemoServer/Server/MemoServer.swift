import Foundation
import MemoNotebook
import MemoStore

/// memo's JSON-RPC 2.0 server: the LSP lifecycle, the notebook methods of SPEC §8, live
/// watches, and a language server for `*.memo` command files. It reads message bodies and
/// sends JSON values; framing and the stream are the transport's business.
package final class MemoServer {
    private enum Lifecycle {
        case waitingForInitialize, running, shutDown
    }

    let notebook: Notebook
    private let send: (JSONValue) -> Void
    let log: (String) -> Void
    private var lifecycle = Lifecycle.waitingForInitialize
    var encoding = PositionEncoding.utf16
    var documents: [String: TextDocument] = [:]
    let watches = WatchFeed()
    /// The memos' own files, for go to definition; nil when there is no folder for them.
    let memoFiles: MemoFiles?
    /// The store's change stamp when references were last checked.
    var referenceStamp: [Int64] = []
    /// Why the last save of a memo's file was not applied, by the file's URI.
    var saveProblems: [String: String] = [:]
    private var nextRequestID = 1

    /// The status to exit with, once the client sent `exit`: 0 after `shutdown`, 1 without.
    package private(set) var exitStatus: Int32?

    /// - Parameter memoFilesFolder: where the memos' own files go (`MemoFiles.folder`).
    package init(notebook: Notebook, memoFilesFolder: String?, send: @escaping (JSONValue) -> Void,
                 log: @escaping (String) -> Void) {
        self.notebook = notebook
        memoFiles = memoFilesFolder.map(MemoFiles.init)
        self.send = send
        self.log = log
    }

    /// True once `shutdown` was answered.
    package var isShutDown: Bool { lifecycle == .shutDown }

    /// Whether the transport should call `tick()` now and then: while watches exist, or
    /// documents or memos' files whose references must follow the store.
    package var wantsTicks: Bool { !watches.isEmpty || !documents.isEmpty || !(memoFiles?.isEmpty ?? true) }

    /// The most JSON values one message may hold: far more than any request needs, and few
    /// enough that parsing them takes tens of megabytes, not gigabytes.
    static let maximumValuesPerMessage = 200_000

    /// Handles one message body: an object, or a batch (an array of them).
    package func receive(_ body: [UInt8]) {
        if JSONValueCount.exceeds(Self.maximumValuesPerMessage, in: body) {
            return refuse(body, .invalidRequest("the message holds more than \(Self.maximumValuesPerMessage) JSON values; it was not read"))
        }
        guard body.withUnsafeBytes(ByteText.isValid) else {
            return refuse(body, .parseError("parse error: the message is not valid UTF-8"))
        }
        let data = Data(body)
        // A single message goes straight to the types that read it; only a batch is parsed
        // into a tree first, to split it. Every parse is of the whole message, so one more
        // kept alive would cost another copy of a message of up to 64 MiB.
        guard body.first(where: { !Self.isJSONWhiteSpace($0) }) == UInt8(ascii: "[") else {
            if let answer = handle(data) { send(answer) }
            return
        }
        guard let batch = try? JSONSerialization.jsonObject(with: data, options: [.fragmentsAllowed]) as? [Any] else {
            return refuse(body, .parseError("parse error: the message is not valid JSON"))
        }
        guard !batch.isEmpty else {
            send(Self.response(id: nil, error: .invalidRequest("an empty batch")))
            return
        }
        let answers = batch.compactMap { element -> JSONValue? in
            guard let elementData = try? JSONSerialization.data(withJSONObject: element, options: [.fragmentsAllowed]) else {
                return Self.response(id: nil, error: .invalidRequest("not a JSON-RPC 2.0 message object"))
            }
            return handle(elementData)
        }
        if !answers.isEmpty { send(.array(answers)) }
    }

    /// Answers a message that cannot be read at all, and says so in the log.
    private func refuse(_ body: [UInt8], _ error: RPCError) {
        log("\(error.message) (a message of \(body.count) bytes)")
        send(Self.response(id: nil, error: error))
    }

    private static func isJSONWhiteSpace(_ byte: UInt8) -> Bool {
        byte == 0x20 || byte == 0x09 || byte == 0x0A || byte == 0x0D
    }

    /// Answers a frame the transport could not read.
    package func receiveMalformedFrame(_ reason: String) {
        log("malformed frame: \(reason)")
        send(Self.response(id: nil, error: .parseError("malformed frame: \(reason)")))
    }

    /// Reports changes to watched results, by this connection or other processes: the
    /// transport calls it once a burst of messages has been answered, and every quarter
    /// second while watches exist, so answers go out before the notifications they cause
    /// and a burst of changes makes one notification per watch.
    package func tick() {
        reportWatchChanges()
        refreshReferences()
    }

    /// One message: the answer to send, if it is a request or cannot be read.
    private func handle(_ data: Data) -> JSONValue? {
        switch IncomingMessage.decode(data) {
        case .failure(let rejection):
            if rejection.error.code == .parseError { log("\(rejection.error.message) (a message of \(data.count) bytes)") }
            return Self.response(id: rejection.id, error: rejection.error)
        case .success(let message):
            switch message.kind {
            case .response:
                return nil
            case .notification:
                handleNotification(message)
                return nil
            case .request(let id):
                do {
                    return Self.response(id: id, result: try handleRequest(message))
                } catch {
                    return Self.response(id: id, error: error)
                }
            }
        }
    }

    private func handleRequest(_ message: IncomingMessage) throws(RPCError) -> JSONValue {
        switch lifecycle {
        case .waitingForInitialize where message.method != "initialize":
            throw RPCError(code: .serverNotInitialized, message: "the server is not initialized: send 'initialize' first")
        case .running where message.method == "initialize":
            throw .invalidRequest("the server is already initialized")
        case .shutDown:
            throw .invalidRequest("the server is shutting down: only 'exit' is accepted")
        default:
            break
        }
        switch message.method {
        case "initialize": return try initialize(message.params(InitializeParams.self))
        case "shutdown":
            lifecycle = .shutDown
            return .null
        case "memo/add": return try add(message.params(AddParams.self))
        case "memo/get": return try get(message.params(GetParams.self))
        case "memo/list": return try list(message.params(ListParams.self))
        case "memo/update": return try update(message.params(UpdateParams.self))
        case "memo/delete": return try delete(message.params(DeleteParams.self))
        case "memo/search": return try search(message.params(SearchParams.self))
        case "memo/tags": return try tags()
        case "memo/execute": return execute(try message.params(ExecuteParams.self))
        case "memo/watch": return try watch(message.params(ListParams.self))
        case "memo/unwatch": return try unwatch(message.params(UnwatchParams.self))
        case "textDocument/completion": return try completion(message.params(TextDocumentPositionParams.self))
        case "textDocument/hover": return try hover(message.params(TextDocumentPositionParams.self))
        case "textDocument/definition": return try definition(message.params(TextDocumentPositionParams.self))
        case "textDocument/documentLink": return try documentLinks(message.params(DocumentLinkParams.self))
        case "textDocument/inlayHint": return try inlayHints(message.params(InlayHintParams.self))
        case "textDocument/codeAction": return try codeActions(message.params(CodeActionParams.self))
        case "workspace/symbol": return try workspaceSymbols(message.params(WorkspaceSymbolParams.self))
        case "workspace/executeCommand": return try executeCommand(message.params(ExecuteCommandParams.self))
        default: throw .methodNotFound(message.method)
        }
    }

    private func handleNotification(_ message: IncomingMessage) {
        if message.method == "exit" {
            exitStatus = lifecycle == .shutDown ? 0 : 1
            return
        }
        guard lifecycle == .running else { return }
        do {
            switch message.method {
            case "textDocument/didOpen": open(try message.params(DidOpenParams.self))
            case "textDocument/didChange": change(try message.params(DidChangeParams.self))
            case "textDocument/didClose": close(try message.params(DidCloseParams.self))
            case "textDocument/didSave": saved(try message.params(DidSaveParams.self))
            default: break
            }
        } catch {
            log("ignored \(message.method): \(error.message)")
        }
    }

    /// Answers `initialize`: capabilities, server info, and the position encoding: UTF-8
    /// when the client offers it, else LSP's default UTF-16.
    private func initialize(_ params: InitializeParams) -> JSONValue {
        let offered = params.capabilities?.general?.positionEncodings ?? []
        encoding = offered.contains(PositionEncoding.utf8.rawValue) ? .utf8 : .utf16
        lifecycle = .running
        return .object([
            ("capabilities", .object([
                ("positionEncoding", .string(encoding.rawValue)),
                ("textDocumentSync", .object([("openClose", .bool(true)), ("change", .integer(2)),
                                              ("save", .object([("includeText", .bool(true))]))])),
                ("completionProvider", .object([("triggerCharacters", .array(["@", "-", "#"].map(JSONValue.string)))])),
                ("hoverProvider", .bool(true)),
                ("definitionProvider", .bool(true)),
                ("documentLinkProvider", .object([("resolveProvider", .bool(false))])),
                ("inlayHintProvider", .bool(true)),
                ("workspaceSymbolProvider", .bool(true)),
                ("codeActionProvider", .object([("codeActionKinds", .array([.string("refactor.extract")]))])),
                ("executeCommandProvider", .object([("commands", .array([
                    .string(Self.saveSelectionCommand), .string(Self.moveSelectionCommand),
                ]))])),
            ])),
            ("serverInfo", .object([("name", .string("memo")), ("version", .string(memoVersion))])),
        ])
    }

    func sendNotification(_ method: String, params: JSONValue) {
        send(Self.notification(method, params: params))
    }

    /// Sends a request to the client (`workspace/applyEdit`); its answer is not awaited.
    func sendRequest(_ method: String, params: JSONValue) {
        defer { nextRequestID += 1 }
        send(.object([("jsonrpc", .string("2.0")), ("id", .string("memo-\(nextRequestID)")), ("method", .string(method)),
                      ("params", params)]))
    }

    /// Sends `memo/didChange` for every watch whose result changed, by this connection or another.
    private func reportWatchChanges() {
        do {
            for change in try watches.changes(in: notebook) {
                sendNotification("memo/didChange", params: .object([
                    ("watchId", .integer(Int64(change.id))), ("memos", .array(change.memos)),
                ]))
            }
        } catch {
            log("watch refresh failed: \(errorMessage(error))")
        }
    }

    static func response(id: RequestID?, result: JSONValue) -> JSONValue {
        .object([("jsonrpc", .string("2.0")), ("id", id?.json ?? .null), ("result", result)])
    }

    static func response(id: RequestID?, error: RPCError) -> JSONValue {
        .object([("jsonrpc", .string("2.0")), ("id", id?.json ?? .null), ("error", error.json)])
    }

    static func notification(_ method: String, params: JSONValue) -> JSONValue {
        .object([("jsonrpc", .string("2.0")), ("method", .string(method)), ("params", params)])
    }
}
