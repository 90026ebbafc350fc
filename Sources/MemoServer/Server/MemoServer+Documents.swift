import MemoNotebook

/// The language-server side: open documents, their diagnostics, completion and hover.
extension MemoServer {
    func open(_ params: DidOpenParams) {
        let item = params.textDocument
        documents[item.uri] = TextDocument(uri: item.uri, languageId: item.languageId ?? "", version: item.version, text: item.text)
        publishDiagnostics(for: item.uri)
    }

    /// Applies full or incremental changes in order.
    func change(_ params: DidChangeParams) {
        let uri = params.textDocument.uri
        guard var document = documents[uri] else {
            log("ignored a change to \(uri), which is not open")
            return
        }
        for change in params.contentChanges {
            document.apply(change.text, replacing: change.range, encoding: encoding)
        }
        document.setVersion(params.textDocument.version)
        documents[uri] = document
        publishDiagnostics(for: uri)
    }

    func close(_ params: DidCloseParams) {
        documents.removeValue(forKey: params.textDocument.uri)
        sendDiagnostics([], for: params.textDocument.uri, version: nil)
    }

    /// Command completion, in command files only.
    func completion(_ params: TextDocumentPositionParams) throws(RPCError) -> JSONValue {
        let document = try openDocument(params.textDocument.uri)
        guard document.isCommandFile else { return .object([("isIncomplete", .bool(false)), ("items", .array([]))]) }
        return DocumentFeatures(notebook: notebook, encoding: encoding)
            .completion(in: document.line(params.position.line) ?? "", lineNumber: params.position.line,
                        at: params.position.character)
    }

    func hover(_ params: TextDocumentPositionParams) throws(RPCError) -> JSONValue {
        let document = try openDocument(params.textDocument.uri)
        return try answering {
            try DocumentFeatures(notebook: notebook, encoding: encoding)
                .hover(in: document.line(params.position.line) ?? "", lineNumber: params.position.line,
                       at: params.position.character, isCommandFile: document.isCommandFile)
        }
    }

    private func openDocument(_ uri: String) throws(RPCError) -> TextDocument {
        guard let document = documents[uri] else { throw .invalidParams("invalid params: \(uri) is not open") }
        return document
    }

    /// Command diagnostics, for command files only: other documents are not commands.
    private func publishDiagnostics(for uri: String) {
        guard let document = documents[uri] else { return }
        let diagnostics = document.isCommandFile ? Diagnostics.of(document, encoding: encoding) : []
        sendDiagnostics(diagnostics, for: uri, version: document.version)
    }

    private func sendDiagnostics(_ diagnostics: [JSONValue], for uri: String, version: Int?) {
        var params: [(String, JSONValue)] = [("uri", .string(uri))]
        if let version { params.append(("version", .integer(Int64(version)))) }
        params.append(("diagnostics", .array(diagnostics)))
        sendNotification("textDocument/publishDiagnostics", params: .object(params))
    }
}
