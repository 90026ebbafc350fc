import MemoModel
import MemoNotebook

/// The documents the client has open, by URI, and what the server offers in them:
/// completion, hover, and diagnostics (of commands in command files, of memo references
/// in every document, and of refused saves of memos' own files).
final class DocumentTable {
    private var documents: [String: TextDocument] = [:]
    /// How positions count characters, agreed at `initialize`.
    var encoding = PositionEncoding.utf16
    private let notebook: Notebook
    private let references: ReferenceService
    private let outbox: Outbox
    private let log: (String) -> Void

    init(notebook: Notebook, references: ReferenceService, outbox: Outbox, log: @escaping (String) -> Void) {
        self.notebook = notebook
        self.references = references
        self.outbox = outbox
        self.log = log
    }

    var isEmpty: Bool { documents.isEmpty }

    func isOpen(_ uri: String) -> Bool {
        documents[uri] != nil
    }

    /// The open document at `uri`, or an error for a request about one that is not.
    /// The open documents, by URI.
    var openDocuments: [TextDocument] {
        documents.keys.sorted().compactMap { documents[$0] }
    }

    func document(_ uri: String) throws(RPCError) -> TextDocument {
        guard let document = documents[uri] else { throw .invalidParams("invalid params: \(uri) is not open") }
        return document
    }

    /// The text of the document at `uri`, if it is open and kept: for one memo does not keep,
    /// a save reads the file the editor wrote, not an empty text.
    func text(of uri: String) -> String? {
        guard let document = documents[uri], !document.isUnkept else { return nil }
        return document.text
    }

    /// A message that could not be read may have been a change to `uri`, or, when it is nil,
    /// to any open document: those documents are no longer known here.
    func missChange(to uri: String?) {
        for key in documents.keys.sorted() where (uri == nil || key == uri) && !documents[key]!.isUnkept {
            documents[key]!.missChange()
            log("a change to \(key) may have been in a message memo could not read; memo stops offering anything in it")
            publishDiagnostics(for: key)
        }
    }

    func open(_ params: DidOpenParams) {
        let item = params.textDocument
        documents[item.uri] = TextDocument(
            uri: item.uri, languageId: item.languageId ?? "", version: item.version, text: item.text)
        references.noteEditorText(item.text, of: item.uri, opening: true)
        publishDiagnostics(for: item.uri)
    }

    /// Applies full or incremental changes in order.
    func change(_ params: DidChangeParams) {
        let uri = params.textDocument.uri
        guard documents[uri] != nil else {
            log("ignored a change to \(uri), which is not open")
            return
        }
        // Changed in place: a copy of a document of 100,000 lines would cost every keystroke.
        var ignored = 0
        for change in params.contentChanges {
            if documents[uri]!.isUnkept && change.range != nil { ignored += 1 }
            documents[uri]!.apply(change.text, replacing: change.range, encoding: encoding)
        }
        if ignored > 0 { log("ignored \(ignored) changes to \(uri), which memo does not keep") }
        documents[uri]!.setVersion(params.textDocument.version)
        references.noteEditorText(documents[uri]!.text, of: uri, opening: false)
        publishDiagnostics(for: uri)
    }

    /// Forgets the document; a memo's file closed follows the store again, from now (the
    /// store may have changed while the editor held it).
    func close(_ params: TextDocumentParams) {
        documents.removeValue(forKey: params.textDocument.uri)
        references.saveProblems.removeValue(forKey: params.textDocument.uri)
        references.editorBases.removeValue(forKey: params.textDocument.uri)
        sendDiagnostics([], for: params.textDocument.uri, version: nil)
        references.refreshFiles(isOpen: isOpen)
    }

    /// Memo references after `#` in every document; elsewhere in command files, commands,
    /// options, tags and ids.
    func completion(_ params: TextDocumentPositionParams) throws(RPCError) -> JSONValue {
        let document = try document(params.textDocument.uri)
        if let memos = references.completion(
            in: document, lineNumber: params.position.line, at: params.position.character, encoding: encoding)
        {
            return memos
        }
        guard document.isCommandFile else { return .object([("isIncomplete", .bool(false)), ("items", .array([]))]) }
        return DocumentFeatures(notebook: notebook, encoding: encoding)
            .completion(
                in: document.line(params.position.line) ?? "", lineNumber: params.position.line,
                at: params.position.character)
    }

    /// `textDocument/hover`; `naming` says which memo a reference in the document names.
    func hover(
        _ params: TextDocumentPositionParams,
        naming: (MemoReference.Found, String, TextDocument) throws(StoreError) -> Memo?
    ) throws(RPCError) -> JSONValue {
        let document = try document(params.textDocument.uri)
        return try RPCError.answering {
            try DocumentFeatures(notebook: notebook, encoding: encoding)
                .hover(
                    in: document.line(params.position.line) ?? "",
                    references: document.references(onLine: params.position.line),
                    lineNumber: params.position.line, at: params.position.character,
                    isCommandFile: document.isCommandFile,
                    naming: { found, line throws(StoreError) in try naming(found, line, document) })
        }
    }

    /// Diagnostics again for every open document: the store changed.
    func publishAllDiagnostics() {
        for uri in documents.keys.sorted() { publishDiagnostics(for: uri) }
    }

    /// Command diagnostics in command files, warnings on references to missing memos in
    /// every document, and the refusal of a save of a memo's own file.
    func publishDiagnostics(for uri: String) {
        guard documents[uri] != nil else { return }
        var diagnostics: [JSONValue] = []
        switch documents[uri]!.unkept {
        case .tooLarge(let bytes, let lines)?:
            let size = bytes > TextDocument.maximumKeptBytes ? "\(bytes) bytes" : "\(lines) lines"
            diagnostics.append(
                Self.documentDiagnostic(
                    severity: 3,
                    message: "memo reads documents of up to \(TextDocument.maximumKeptBytes) bytes and "
                        + "\(TextDocument.maximumKeptLines) lines; this one has \(size), so memo offers nothing in it"))
        case .missedChange?:
            diagnostics.append(
                Self.documentDiagnostic(
                    severity: 2,
                    message: "a change to this document came in a message memo "
                        + "could not read, so memo no longer knows its text and offers nothing in it; close and reopen it"
                ))
        case nil:
            if documents[uri]!.isCommandFile {
                diagnostics += Diagnostics.of(documents[uri]!, encoding: encoding, notebook: notebook)
            }
            diagnostics += references.diagnostics(for: &documents[uri]!, encoding: encoding)
        }
        if let problem = references.saveProblems[uri] {
            diagnostics.append(Self.documentDiagnostic(severity: 1, message: problem))
        }
        sendDiagnostics(diagnostics, for: uri, version: documents[uri]!.version)
    }

    /// After a save of a memo's file: its diagnostics, with the refusal if any; for a file
    /// the client did not open here, a refusal is shown as a message instead.
    func reportSave(of uri: String) {
        if documents[uri] != nil { return publishDiagnostics(for: uri) }
        guard let problem = references.saveProblems.removeValue(forKey: uri) else { return }
        outbox.notify("window/showMessage", params: .object([("type", .integer(1)), ("message", .string(problem))]))
    }

    /// A diagnostic about the whole document, shown at its start.
    private static func documentDiagnostic(severity: Int64, message: String) -> JSONValue {
        .object([
            (
                "range",
                .object([("start", Position(line: 0, character: 0).json), ("end", Position(line: 0, character: 0).json)]
                )
            ),
            ("severity", .integer(severity)), ("source", .string("memo")), ("message", .string(message))
        ])
    }

    private func sendDiagnostics(_ diagnostics: [JSONValue], for uri: String, version: Int?) {
        var params: [(String, JSONValue)] = [("uri", .string(uri))]
        if let version { params.append(("version", .integer(Int64(version)))) }
        params.append(("diagnostics", .array(diagnostics)))
        outbox.notify("textDocument/publishDiagnostics", params: .object(params))
    }
}
