import MemoNotebook
import MemoStore

/// Memo references (`#12`, `memo:UUID`) in every open document (SPEC §8 "References in any
/// document"): diagnostics for missing memos, definition and links to the memos' own files,
/// inlay hints, completion after `#`, workspace symbols, and the selection code actions.
extension MemoServer {
    /// A reference in a document, with the memo it names (nil when there is none).
    struct ResolvedReference {
        let line: Int
        let range: Swift.Range<String.Index>
        let text: String
        let reference: MemoReference
        let memo: Memo?
    }

    static let saveSelectionCommand = "memo.saveSelection"
    static let moveSelectionCommand = "memo.moveSelection"

    /// Every reference in `document` (in `lines` only, when given), resolved in the store.
    func references(in document: TextDocument, lines: ClosedRange<Int>? = nil) -> [ResolvedReference] {
        guard document.lineCount > 0 else { return [] }
        let everyLine = 0...(document.lineCount - 1)
        let wanted = lines ?? everyLine
        guard wanted.overlaps(everyLine) else { return [] }
        var resolved: [ResolvedReference] = []
        for number in wanted.clamped(to: everyLine) {
            guard let line = document.line(number) else { continue }
            for found in MemoReference.all(in: line) {
                resolved.append(ResolvedReference(line: number, range: found.range, text: line, reference: found.reference,
                                                  memo: try? found.reference.memo(in: notebook.store)))
            }
        }
        return resolved
    }

    /// A warning on each reference to a memo that does not exist.
    func referenceDiagnostics(for document: TextDocument) -> [JSONValue] {
        references(in: document).filter { $0.memo == nil }.map { found in
            .object([
                ("range", encoding.range(line: found.line, found.range, in: found.text)),
                ("severity", .integer(2)),
                ("source", .string("memo")),
                ("message", .string("no memo \(found.reference.missingName)")),
            ])
        }
    }

    /// `textDocument/definition` on a reference: the memo's own file, written now.
    func definition(_ params: TextDocumentPositionParams) throws(RPCError) -> JSONValue {
        let document = try openDocument(params.textDocument.uri)
        guard let line = document.line(params.position.line),
              let found = MemoReference.at(encoding.index(at: params.position.character, in: line), in: line),
              let memo = try answering({ try found.reference.memo(in: notebook.store) })
        else { return .null }
        return .object([("uri", .string(try fileURI(of: memo))), ("range", Self.startOfFile)])
    }

    /// `textDocument/documentLink`: every reference to an existing memo links to its file.
    func documentLinks(_ params: DocumentLinkParams) throws(RPCError) -> JSONValue {
        let document = try openDocument(params.textDocument.uri)
        var links: [JSONValue] = []
        for found in references(in: document) {
            guard let memo = found.memo else { continue }
            links.append(.object([
                ("range", encoding.range(line: found.line, found.range, in: found.text)),
                ("target", .string(try fileURI(of: memo))),
                ("tooltip", .string(MemoContent.firstLine(of: memo.content))),
            ]))
        }
        return .array(links)
    }

    /// `textDocument/inlayHint`: each reference's first line (at most 40 characters) after it.
    func inlayHints(_ params: InlayHintParams) throws(RPCError) -> JSONValue {
        let document = try openDocument(params.textDocument.uri)
        let lines = max(0, params.range.start.line)...max(0, params.range.start.line, params.range.end.line)
        return .array(references(in: document, lines: lines).compactMap { found in
            guard let memo = found.memo else { return nil }
            return .object([
                ("position", encoding.position(line: found.line, index: found.range.upperBound, in: found.text)),
                ("label", .string(Self.shortened(TerminalText.row(MemoContent.firstLine(of: memo.content)), to: 40))),
                ("paddingLeft", .bool(true)),
            ])
        })
    }

    /// Completion of a reference after `#` outside command files: memos newest first,
    /// narrowed by full-text search with the words typed after the `#` (or by id, for digits).
    func referenceCompletion(in line: String, lineNumber: Int, at column: Int) -> JSONValue {
        let cursor = encoding.index(at: column, in: line)
        let typedStart = line[..<cursor].lastIndex { !($0.isLetter || $0.isNumber || $0 == "_") }
        guard let hash = typedStart, line[hash] == "#",
              hash == line.startIndex || !MemoReference.isWordCharacter(line[line.index(before: hash)])
        else { return .object([("isIncomplete", .bool(false)), ("items", .array([]))]) }
        let typed = String(line[line.index(after: hash)..<cursor])
        let memos = (try? candidates(matching: typed)) ?? []
        let range = encoding.range(line: lineNumber, hash..<cursor, in: line)
        let items: [JSONValue] = memos.enumerated().map { index, memo in
            .object([
                ("label", .string("#\(memo.id)")),
                ("detail", .string(TerminalText.row(memo.firstLine))),
                ("filterText", .string("#" + typed)),
                ("sortText", .string(String(format: "%04d", index))),
                ("textEdit", .object([("range", range), ("newText", .string("#\(memo.id)"))])),
            ])
        }
        return .object([("isIncomplete", .bool(true)), ("items", .array(items))])
    }

    /// `workspace/symbol`: memos matching the query by full-text search, its last word a
    /// prefix as the query is being typed (all memos for an empty one), newest first, at
    /// most 100, each located at its own file.
    func workspaceSymbols(_ params: WorkspaceSymbolParams) throws(RPCError) -> JSONValue {
        let query = params.query.trimmingCharacters(in: .whitespaces)
        let memos: [Memo]
        if query.isEmpty {
            memos = try answering { try notebook.store.memos(MemoQuery(limit: 100)).collect() }
        } else {
            guard let search = (try? SearchQuery(parsing: query + "*")) ?? (try? SearchQuery(parsing: query)) else { return .array([]) }
            memos = try answering {
                try notebook.store.memos(MemoQuery(filter: MemoFilter(search: search), limit: 100)).collect()
            }
        }
        var symbols: [JSONValue] = []
        for memo in memos {
            symbols.append(.object([
                ("name", .string(TerminalText.row(MemoContent.firstLine(of: memo.content)))),
                ("kind", .integer(1)),
                ("containerName", .string("#\(memo.id)")),
                ("location", .object([("uri", .string(try fileURI(of: memo))), ("range", Self.startOfFile)])),
            ]))
        }
        return .array(symbols)
    }

    /// `textDocument/codeAction` on a selection: save it as a memo, or move it to one.
    func codeActions(_ params: CodeActionParams) throws(RPCError) -> JSONValue {
        _ = try openDocument(params.textDocument.uri)
        guard params.range.start != params.range.end else { return .array([]) }
        let selection: JSONValue = .object([("uri", .string(params.textDocument.uri)), ("range", params.range.json)])
        return .array([
            ("Save selection as memo", Self.saveSelectionCommand),
            ("Move selection to a memo", Self.moveSelectionCommand),
        ].map { title, command in
            .object([
                ("title", .string(title)),
                ("kind", .string("refactor.extract")),
                ("command", .object([("title", .string(title)), ("command", .string(command)), ("arguments", .array([selection]))])),
            ])
        })
    }

    /// `workspace/executeCommand` of a code action: adds the selection as a memo; a move
    /// then asks the editor (`workspace/applyEdit`) to put `#ID` in its place. The new memo.
    func executeCommand(_ params: ExecuteCommandParams) throws(RPCError) -> JSONValue {
        guard [Self.saveSelectionCommand, Self.moveSelectionCommand].contains(params.command) else {
            throw .invalidParams("invalid params: unknown command '\(params.command)'")
        }
        guard let selection = params.arguments?.first else { throw .invalidParams("invalid params: the command needs the selection") }
        let document = try openDocument(selection.uri)
        let text = document.text(in: selection.range, encoding: encoding)
        guard !text.allSatisfy(\.isWhitespace) else { throw .invalidParams("invalid params: the selection is empty") }
        let outcome = try answering { try notebook.execute(.add(text: text, tags: [])) }
        guard case .added(let memo) = outcome else { return .null }
        if params.command == Self.moveSelectionCommand {
            sendRequest("workspace/applyEdit", params: .object([
                ("label", .string("Move selection to a memo")),
                ("edit", .object([("changes", .object([(selection.uri, .array([
                    .object([("range", selection.range.json), ("newText", .string("#\(memo.id)"))]),
                ]))]))])),
            ]))
        }
        return JSONRenderer.json(memo)
    }

    /// `textDocument/didSave` of a memo's own file: the saved text becomes the memo's, as
    /// `edit` does; refused, with an error on the file, when the memo changed in the store
    /// since the file was written.
    func saved(_ params: DidSaveParams) {
        let uri = params.textDocument.uri
        guard let files = memoFiles, let id = files.id(ofURI: uri) else { return }
        guard var text = params.text ?? documents[uri]?.text else { return }
        saveProblems[uri] = nil
        do {
            guard let current = try notebook.store.memo(id: id) else {
                saveProblems[uri] = "memo #\(id) no longer exists: the save was not applied"
                publishDiagnostics(for: uri)
                return
            }
            // Editors end a saved file with a line break; the memo keeps its own ending.
            if text.hasSuffix("\n") && !current.content.hasSuffix("\n") { text.removeLast() }
            if let base = files.base(of: id), base != MemoFiles.Base(current) {
                saveProblems[uri] = "memo #\(id) changed in the store since this file was written: "
                    + "the save is refused and the store keeps its version"
            } else if text != current.content {
                guard case .edited(let memo) = try notebook.execute(.edit(id: id, text: text)) else { return }
                files.remember(memo)
            } else {
                files.remember(current)
            }
        } catch {
            saveProblems[uri] = "the save was not applied: \(errorMessage(error))"
        }
        publishDiagnostics(for: uri)
    }

    /// After the store changed (here or in another process): diagnostics again for every
    /// open document, and the memos' files that are not open rewritten or removed.
    func refreshReferences() {
        guard let stamp = try? notebook.store.changeStamp(), stamp != referenceStamp else { return }
        referenceStamp = stamp
        for uri in documents.keys.sorted() { publishDiagnostics(for: uri) }
        guard let files = memoFiles else { return }
        for id in files.ids where documents[files.uri(of: id)] == nil {
            guard let memo = try? notebook.store.memo(id: id) else {
                files.remove(id)
                continue
            }
            if files.base(of: id) != MemoFiles.Base(memo) { _ = try? files.write(memo) }
        }
    }

    /// Writes the memo's file; its URI.
    private func fileURI(of memo: Memo) throws(RPCError) -> String {
        guard let files = memoFiles else { throw .invalidParams("no folder for the memos' files: set HOME or XDG_CACHE_HOME") }
        do {
            return try files.write(memo)
        } catch {
            throw RPCError(code: .internalError, message: "\(error)")
        }
    }

    /// Memos for a `#` completion, newest first: all of them, or by id prefix for digits
    /// (the REPL's id completion), else by full-text search with the last word a prefix.
    private func candidates(matching typed: String) throws -> [(id: Int64, firstLine: String)] {
        if typed.allSatisfy({ $0.isASCII && $0.isNumber }) {
            return try notebook.store.summaries(idPrefix: typed, limit: Completer.limit).map { ($0.id, $0.firstLine) }
        }
        let search = try SearchQuery(parsing: typed + "*")
        return try notebook.store.memos(MemoQuery(filter: MemoFilter(search: search), limit: Completer.limit)).collect()
            .map { ($0.id, MemoContent.firstLine(of: $0.content)) }
    }

    private static let startOfFile: JSONValue = .object([
        ("start", .object([("line", .integer(0)), ("character", .integer(0))])),
        ("end", .object([("line", .integer(0)), ("character", .integer(0))])),
    ])

    private static func shortened(_ text: String, to length: Int) -> String {
        text.count <= length ? text : String(text.prefix(length - 1)) + "…"
    }
}

extension PositionRange {
    var json: JSONValue {
        .object([("start", start.json), ("end", end.json)])
    }
}

extension Position {
    var json: JSONValue {
        .object([("line", .integer(Int64(line))), ("character", .integer(Int64(character)))])
    }
}
