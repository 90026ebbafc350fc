import MemoNotebook

/// The language-server side: open command files, their diagnostics, completion and hover.
extension MemoServer {
    func open(_ params: DidOpenParams) {
        documents[params.textDocument.uri] = TextDocument(uri: params.textDocument.uri, text: params.textDocument.text)
        publishDiagnostics(for: params.textDocument.uri)
    }

    /// Full sync: the last change holds the whole text.
    func change(_ params: DidChangeParams) {
        guard let text = params.contentChanges.last?.text else { return }
        documents[params.textDocument.uri, default: TextDocument(uri: params.textDocument.uri, text: "")].replaceText(with: text)
        publishDiagnostics(for: params.textDocument.uri)
    }

    func close(_ params: DidCloseParams) {
        documents.removeValue(forKey: params.textDocument.uri)
        sendDiagnostics([], for: params.textDocument.uri)
    }

    func completion(_ params: TextDocumentPositionParams) throws(RPCError) -> JSONValue {
        let line = try lineText(params)
        return DocumentFeatures(notebook: notebook, encoding: encoding)
            .completion(in: line, lineNumber: params.position.line, at: params.position.character)
    }

    func hover(_ params: TextDocumentPositionParams) throws(RPCError) -> JSONValue {
        let line = try lineText(params)
        return try answering {
            try DocumentFeatures(notebook: notebook, encoding: encoding)
                .hover(in: line, lineNumber: params.position.line, at: params.position.character)
        }
    }

    private func lineText(_ params: TextDocumentPositionParams) throws(RPCError) -> String {
        guard let document = documents[params.textDocument.uri] else {
            throw .invalidParams("invalid params: \(params.textDocument.uri) is not open")
        }
        return document.line(params.position.line) ?? ""
    }

    private func publishDiagnostics(for uri: String) {
        guard let document = documents[uri] else { return }
        sendDiagnostics(Diagnostics.of(document, encoding: encoding), for: uri)
    }

    private func sendDiagnostics(_ diagnostics: [JSONValue], for uri: String) {
        sendNotification("textDocument/publishDiagnostics",
                         params: .object([("uri", .string(uri)), ("diagnostics", .array(diagnostics))]))
    }
}
