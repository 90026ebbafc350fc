import FoundationEssentials
import MemoModel
import MemoNotebook

/// memo's JSON-RPC 2.0 server: the LSP lifecycle, and the dispatch of each message to the
/// part that serves it: the notebook methods of docs/REFERENCE.md, Notebook methods
/// (`NotebookMethods`), open documents (`DocumentTable`), and memo references in them
/// (`ReferenceService`, `SelectionActions`). It reads message bodies and sends JSON values; framing
/// and the stream are the transport's business.
package final class MemoServer {
    private enum Lifecycle {
        case waitingForInitialize, running, shutDown
    }

    private let outbox: Outbox
    private let log: (String) -> Void
    private var lifecycle = Lifecycle.waitingForInitialize
    private let notebookMethods: NotebookMethods
    private let documents: DocumentTable
    private let references: ReferenceService
    private let selectionActions: SelectionActions
    /// What the client said at `initialize` it supports.
    private var client = ClientSupport()
    private let workspace: WorkspaceIndex

    /// The status to exit with, once the client sent `exit`: 0 after `shutdown`, 1 without.
    package private(set) var exitStatus: Int32?

    /// - Parameter memoFilesFolder: the folder under which each store's own folder holds the
    ///   memos' files (`MemoFiles.folder`). An encrypted store's memos get none: its text is
    ///   written nowhere but its sealed file.
    package init(
        notebook: Notebook, memoFilesFolder: String?, send: @escaping (JSONValue) -> Void,
        log: @escaping (String) -> Void
    ) {
        outbox = Outbox(send: send)
        self.log = log
        notebookMethods = NotebookMethods(notebook: notebook, outbox: outbox, log: log)
        references = ReferenceService(
            notebook: notebook,
            memoFiles: notebook.isStoreSealed
                ? nil : memoFilesFolder.map { MemoFiles(root: $0, store: notebook.storeLocation) })
        documents = DocumentTable(notebook: notebook, references: references, outbox: outbox, log: log)
        selectionActions = SelectionActions(notebook: notebook, outbox: outbox, references: references)
        workspace = WorkspaceIndex(excluding: memoFilesFolder)
    }

    /// Ends the session: a move the client never answered did not happen, and the files of
    /// an in-memory store's memos go with it (nothing of it outlives the server).
    package func finish() {
        selectionActions.takeBackUnansweredMoves()
        if references.notebook.storeLocation.isMemory { references.memoFiles?.removeAll() }
    }

    /// True once `shutdown` was answered.
    package var isShutDown: Bool { lifecycle == .shutDown }

    /// Whether the transport should call `tick()` now and then: while watches exist, or
    /// documents or memos' files whose references must follow the store.
    package var wantsTicks: Bool {
        !notebookMethods.watches.isEmpty || !documents.isEmpty || !(references.memoFiles?.isEmpty ?? true)
    }

    /// Whether the transport should call `tick()` as soon as no input waits: the workspace
    /// folders are still being indexed.
    package var hasBackgroundWork: Bool { lifecycle == .running && workspace.hasWork }

    /// The most JSON values one message may hold: far more than any request needs, and few
    /// enough that parsing them takes tens of megabytes, not gigabytes.
    static let maximumValuesPerMessage = 200_000
    /// The deepest nesting one message may have: far more than any request needs, and less
    /// than the parser's own limit (which would give up without the request's id).
    static let maximumDepth = 100

    /// Handles one message body: an object, or a batch (an array of them), decoded once.
    package func receive(_ body: [UInt8]) {
        let shape = JSONShape(of: body)
        if shape.values > Self.maximumValuesPerMessage {
            return refuse(
                body,
                .invalidRequest(
                    "the message holds more than \(Self.maximumValuesPerMessage) JSON values; it was not read"),
                shape: shape)
        }
        if shape.depth > Self.maximumDepth {
            return refuse(
                body, .invalidRequest("the message nests deeper than \(Self.maximumDepth) levels; it was not read"),
                shape: shape)
        }
        guard body.withUnsafeBytes(ByteText.isValid) else {
            return refuse(body, .parseError("parse error: the message is not valid UTF-8"), shape: shape, id: nil)
        }
        let isBatch = body.first(where: { !Self.isJSONWhiteSpace($0) }) == UInt8(ascii: "[")
        guard let messages = try? IncomingMessage.decode(Data(body), isBatch: isBatch) else {
            return refuse(body, .parseError("parse error: the message is not valid JSON"), shape: shape, id: nil)
        }
        guard !messages.isEmpty else {
            return outbox.answer(Outbox.response(id: nil, error: .invalidRequest("an empty batch")))
        }
        let answers = messages.compactMap(handle)
        if isBatch {
            if !answers.isEmpty { outbox.answer(.array(answers)) }
        } else if let answer = answers.first {
            outbox.answer(answer)
        }
    }

    /// Answers a message that cannot be read at all (with its id, when that could be read
    /// without parsing it), and says so in the log. One that may have been a change to an
    /// open document (its method says so, or cannot be told) leaves that document unknown.
    private func refuse(_ body: [UInt8], _ error: RPCError, shape: JSONShape, id: RequestID?? = .none) {
        log("\(error.message) (a message of \(body.count) bytes)")
        outbox.answer(Outbox.response(id: id ?? shape.id, error: error))
        if shape.method == nil || shape.method == "textDocument/didChange" { documents.missChange(to: shape.uri) }
    }

    private static func isJSONWhiteSpace(_ byte: UInt8) -> Bool {
        byte == 0x20 || byte == 0x09 || byte == 0x0A || byte == 0x0D
    }

    /// Answers a frame the transport could not read.
    package func receiveMalformedFrame(_ reason: String) {
        log("malformed frame: \(reason)")
        outbox.answer(Outbox.response(id: nil, error: .parseError("malformed frame: \(reason)")))
        documents.missChange(to: nil)
    }

    /// Reports changes to watched results, by this connection or other processes: the
    /// transport calls it once a burst of messages has been answered, and every quarter
    /// second while watches exist, so answers go out before the notifications they cause
    /// and a burst of changes makes one notification per watch.
    package func tick() {
        _ = try? references.notebook.useStoreFileIfCreated()
        notebookMethods.reportWatchChanges()
        if hasBackgroundWork { workspace.indexSome() }
        guard references.storeChanged() else { return }
        documents.publishAllDiagnostics()
        references.refreshFiles(isOpen: documents.isOpen)
        requestRefreshes()
    }

    /// Asks the client to ask again for the inlay hints and code lenses of its open
    /// documents, which name memos' titles and backlink counts: the store changed under
    /// them. Only to a client that said it takes these requests; its answers are ignored.
    private func requestRefreshes() {
        guard !documents.isEmpty else { return }
        if client.inlayHintRefresh { outbox.request("workspace/inlayHint/refresh", params: .null) }
        if client.codeLensRefresh { outbox.request("workspace/codeLens/refresh", params: .null) }
    }

    /// One message: the answer to send, if it is a request or cannot be read.
    private func handle(_ message: Result<IncomingMessage, IncomingMessage.Rejection>) -> JSONValue? {
        switch message {
        case .failure(let rejection):
            return Outbox.response(id: rejection.id, error: rejection.error)
        case .success(let message):
            switch message.kind {
            case .response(let id, let result):
                if let id {
                    workspace.received(id, succeeded: result != nil)
                    waitingBriefly { selectionActions.received(id, result: result) }
                    outbox.received(answerTo: id)
                }
                return nil
            case .notification:
                handleNotification(message)
                return nil
            case .request(let id):
                do {
                    guard let result = try handleRequest(message, id: id) else { return nil }
                    return Outbox.response(id: id, result: result)
                } catch {
                    return Outbox.response(id: id, error: error)
                }
            }
        }
    }

    /// The result of request `id`; nil when it is answered later (a move, once the client
    /// answered its edit).
    private func handleRequest(_ message: IncomingMessage, id: RequestID) throws(RPCError) -> JSONValue? {
        switch lifecycle {
        case .waitingForInitialize where message.method != "initialize":
            throw RPCError(
                code: .serverNotInitialized, message: "the server is not initialized: send 'initialize' first")
        case .running where message.method == "initialize":
            throw .invalidRequest("the server is already initialized")
        case .shutDown:
            throw .invalidRequest("the server is shutting down: only 'exit' is accepted")
        default:
            break
        }
        guard let call = message.call else { throw .methodNotFound(message.method) }
        switch try call.get() {
        case .initialize(let params): return initialize(params)
        case .shutdown:
            lifecycle = .shutDown
            return .null
        case .add(let params): return try notebookMethods.add(params)
        case .get(let params): return try notebookMethods.get(params)
        case .list(let params): return try notebookMethods.list(params)
        case .update(let params): return try notebookMethods.update(params)
        case .delete(let params): return try notebookMethods.delete(params)
        case .search(let params): return try notebookMethods.search(params)
        case .tags: return try notebookMethods.tags()
        case .execute(let params): return notebookMethods.execute(params)
        case .watch(let params): return try notebookMethods.watch(params)
        case .unwatch(let params): return try notebookMethods.unwatch(params)
        case .completion(let params): return try documents.completion(params)
        case .hover(let params):
            return try documents.hover(params) { found, line, document throws(StoreError) in
                try references.memo(named: found, on: line, in: document)
            }
        case .definition(let params):
            return try references.definition(
                in: documents.document(params.textDocument.uri), at: params.position,
                encoding: documents.encoding)
        case .references(let params):
            return try references.references(
                to: documents.document(params.textDocument.uri), at: params.position,
                includingItsFile: params.context?.includeDeclaration ?? false,
                openDocuments: documents.openDocuments, closedFiles: closedWorkspaceLines, encoding: documents.encoding)
        case .documentLinks(let params):
            return try references.documentLinks(
                in: documents.document(params.textDocument.uri), encoding: documents.encoding)
        case .inlayHints(let params):
            return references.inlayHints(
                in: try documents.document(params.textDocument.uri), range: params.range,
                encoding: documents.encoding)
        case .codeActions(let params):
            let document = try documents.document(params.textDocument.uri)
            let selected = document.text(in: params.range, encoding: documents.encoding)
            return .array(
                selectionActions.codeActions(params, selected: selected)
                    + [references.stableLinksAction(in: document, encoding: documents.encoding)].compactMap { $0 })
        case .workspaceSymbols(let params): return try references.workspaceSymbols(params)
        case .executeCommand(let params) where params.command == NewMemoCommand.name:
            return try waitingBriefly { () throws(RPCError) in
                try NewMemoCommand(references: references, outbox: outbox, clientShowsDocuments: client.showDocument)
                    .run(params)
            }
        case .executeCommand(let params):
            return try waitingBriefly { () throws(RPCError) in
                try selectionActions.executeCommand(params, id: id, in: documents)
            }
        case .codeLenses(let params):
            return try references.codeLenses(
                in: documents.document(params.textDocument.uri), encoding: documents.encoding)
        case .documentSymbols(let params):
            let document = try documents.document(params.textDocument.uri)
            let symbols = DocumentSymbols(
                document: document, encoding: documents.encoding, hierarchical: client.hierarchicalSymbols)
            if let id = references.memoFiles?.id(ofURI: document.uri) { return symbols.memoFile(id: id) }
            return symbols.headings()
        case .prepareRename(let params):
            return try references.prepareRename(
                in: documents.document(params.textDocument.uri), at: params.position, encoding: documents.encoding)
        case .rename(let params):
            return try waitingBriefly { () throws(RPCError) in
                try references.rename(
                    params, in: documents.document(params.textDocument.uri),
                    openDocument: { [documents] uri in try? documents.document(uri) }, encoding: documents.encoding,
                    versionedEdits: client.versionedEdits)
            }
        case .exit, .didOpen, .didChange, .didClose, .didSave, .initialized, .didChangeWatchedFiles,
            .didChangeWorkspaceFolders:
            throw .methodNotFound(message.method)
        }
    }

    /// How long a write an editor asks for waits for another process's lock: less than an
    /// editor waits for an answer (eglot gives up after 10 s and shows only "Timed out"), so
    /// the user reads that the store is busy. The notebook's methods wait the usual ten seconds.
    static let editorWriteWaitMilliseconds: Int32 = 3_000

    /// Runs an editor's write (rename, a memo file's save, `memo.new`, the selection actions)
    /// waiting at most `editorWriteWaitMilliseconds` for the store.
    private func waitingBriefly<Result, Failure: Error>(
        _ body: () throws(Failure) -> Result
    ) throws(Failure) -> Result {
        try references.notebook.waitingAtMost(milliseconds: Self.editorWriteWaitMilliseconds, body)
    }

    private func handleNotification(_ message: IncomingMessage) {
        if message.method == "exit" {
            exitStatus = lifecycle == .shutDown ? 0 : 1
            return
        }
        guard lifecycle == .running, let call = message.call else { return }
        do {
            switch try call.get() {
            case .didOpen(let params): documents.open(params)
            case .didChange(let params): documents.change(params)
            case .didClose(let params): documents.close(params)
            case .didSave(let params):
                if waitingBriefly({ references.saved(params, openText: documents.text(of: params.textDocument.uri)) }) {
                    documents.reportSave(of: params.textDocument.uri)
                }
                workspace.saved(params.textDocument.uri)
            case .initialized:
                if let registration = workspace.watchRegistration {
                    workspace.sentRegistration(outbox.request("client/registerCapability", params: registration))
                }
            case .didChangeWatchedFiles(let params): workspace.apply(params)
            case .didChangeWorkspaceFolders(let params): workspace.change(params)
            default: break
            }
        } catch {
            log("ignored \(message.method): \(error.message)")
        }
    }

    /// The lines of the workspace's closed files that hold references: an open document's
    /// text counts, not its file on disk.
    private func closedWorkspaceLines() -> [WorkspaceIndex.Line] {
        let open = Set(
            documents.openDocuments.compactMap { WorkspaceIndex.path(ofURI: $0.uri).map(CachePath.normalized) })
        return workspace.lines(skipping: open.contains)
    }

    /// Answers `initialize`: capabilities, server info, and the position encoding: UTF-8
    /// when the client offers it, else LSP's default UTF-16. Notes whether the client applies
    /// edits, which moving a selection to a memo needs, and the workspace folders to index.

    private func initialize(_ params: InitializeParams) -> JSONValue {
        let offered = params.capabilities?.general?.positionEncodings ?? []
        documents.encoding = offered.contains(PositionEncoding.utf8.rawValue) ? .utf8 : .utf16
        selectionActions.clientAppliesEdits = params.capabilities?.workspace?.applyEdit == true
        client = ClientSupport(params.capabilities)
        workspace.start(params)
        lifecycle = .running
        return ServerCapabilities.json(encoding: documents.encoding, client: client)
    }
}
