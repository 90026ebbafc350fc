import MemoModel
import MemoNotebook

/// Memo references (`#12`, `memo:UUID`) in every open document (docs/REFERENCE.md,
/// References in documents): diagnostics for missing memos, definition and links to the memos' own
/// files, inlay hints, completion after `#`, and workspace symbols. It reads documents the
/// `DocumentTable` hands it, and keeps the memos' own files in step with the store.
final class ReferenceService {
    /// A reference in a document, with the memo it names (nil when there is none).
    struct ResolvedReference {
        let line: Int
        let range: Swift.Range<String.Index>
        let text: String
        let reference: MemoReference
        let memo: Memo?
    }

    let notebook: Notebook
    /// The memos' own files, for go to definition; nil when there is no folder for them.
    let memoFiles: MemoFiles?
    /// The store's change stamp when references were last checked.
    var referenceStamp: [Int64] = []
    /// The memos references named, looked up since the store last changed (nil: no memo),
    /// and the store's change stamp they were looked up at.
    private var lookups: [MemoReference: Memo?] = [:]
    private var lookupStamp: [Int64] = []
    /// Why the last save of a memo's file was not applied, by the file's URI.
    var saveProblems: [String: String] = [:]
    /// The version each open memo file's text in the editor is based on, by URI: the base its
    /// file had when the editor opened or reloaded it, or the version its last accepted save
    /// made; kept while another server rewrites the file under the editor's older text.
    /// Missing for a text that is based on no version known (the file had no base).
    var editorBases: [String: MemoFiles.Base] = [:]

    init(notebook: Notebook, memoFiles: MemoFiles?) {
        self.notebook = notebook
        self.memoFiles = memoFiles
    }

    /// Every reference in `document` (in `lines` only, when given), resolved in the notebook.
    /// The document found them as its lines were made, and each memo is looked up once until
    /// the store changes: a keystroke costs the lines it touches, not the document.
    func references(in document: TextDocument, lines: ClosedRange<Int>? = nil) -> [ResolvedReference] {
        guard document.lineCount > 0 else { return [] }
        let everyLine = 0...(document.lineCount - 1)
        let wanted = lines ?? everyLine
        guard wanted.overlaps(everyLine) else { return [] }
        refreshLookups()
        var resolved: [ResolvedReference] = []
        for number in wanted.clamped(to: everyLine) {
            let found = document.references(onLine: number)
            guard !found.isEmpty, let line = document.line(number) else { continue }
            for reference in found {
                resolved.append(
                    ResolvedReference(
                        line: number, range: reference.range, text: line, reference: reference.reference,
                        memo: memo(named: reference.reference)))
            }
        }
        return resolved
    }

    /// Forgets the lookups when the store changed since they were made; the store's stamp.
    @discardableResult
    private func refreshLookups() -> [Int64] {
        let stamp = (try? notebook.changeStamp()) ?? []
        if stamp != lookupStamp {
            lookups = [:]
            lookupStamp = stamp
        }
        return stamp
    }

    /// The memo a reference names, from the lookups made since the store last changed.
    private func memo(named reference: MemoReference) -> Memo? {
        if let known = lookups[reference] { return known }
        let memo = try? reference.memo(in: notebook)
        lookups[reference] = .some(memo)
        return memo
    }

    /// The most warnings on missing memos one document gets: every keystroke sends them all
    /// again, and more would cost typing more than the rest of the keystroke.
    static let maximumWarnings = 1_000

    /// A warning on each reference to a memo that does not exist, up to `maximumWarnings`:
    /// those nearest the line last edited, so a reference just typed is always warned of,
    /// and then a note on the last of them saying how many more there are.
    func diagnostics(for document: inout TextDocument, encoding: PositionEncoding) -> [JSONValue] {
        let stamp = refreshLookups()
        let (shown, total) = document.missingReferences(
            at: stamp, names: { memo(named: $0) != nil }, nearest: Self.maximumWarnings)
        var diagnostics: [JSONValue] = []
        for (line, found) in shown {
            guard let text = document.line(line) else { continue }
            diagnostics.append(
                Self.diagnostic(
                    encoding.range(line: line, found.range, in: text), severity: 2,
                    "no memo \(found.reference.missingName)"))
        }
        if total > shown.count, let (line, found) = shown.last, let text = document.line(line) {
            diagnostics.append(
                Self.diagnostic(
                    encoding.range(line: line, found.range, in: text), severity: 3,
                    "\(total - shown.count) more references in this document name no memo; "
                        + "memo warns of the \(shown.count) nearest the line last edited"))
        }
        return diagnostics
    }

    private static func diagnostic(_ range: JSONValue, severity: Int64, _ message: String) -> JSONValue {
        .object([
            ("range", range), ("severity", .integer(severity)), ("source", .string("memo")),
            ("message", .string(message))
        ])
    }

    /// `textDocument/definition` on a reference: the memo's own file, written now.
    func definition(
        in document: TextDocument, at position: Position, encoding: PositionEncoding
    ) throws(RPCError) -> JSONValue {
        guard let memo = try memo(under: position, in: document, encoding: encoding) else { return .null }
        return .object([("uri", .string(try fileURI(of: memo))), ("range", Self.startOfFile)])
    }

    /// The memo the reference under `position` names. In a memo's own file a `#ID` names what
    /// the memo's links say it does (the memo it named where the text was written, which after
    /// a sync can have another id here); elsewhere, the memo with that id.
    private func memo(
        under position: Position, in document: TextDocument, encoding: PositionEncoding
    ) throws(RPCError) -> Memo? {
        guard let line = document.line(position.line),
            let found = MemoReference.at(
                encoding.index(at: position.character, in: line), among: document.references(onLine: position.line))
        else { return nil }
        return try RPCError.answering { try memo(named: found, on: line, in: document) }
    }

    /// The memo reference `found` on `line` of `document` names: in a memo's own file, what
    /// the memo's link for it names; elsewhere, as the reference says.
    func memo(named found: MemoReference.Found, on line: String, in document: TextDocument) throws(StoreError) -> Memo?
    {
        if case .id = found.reference, let owner = memoFiles?.id(ofURI: document.uri),
            try notebook.memo(id: owner) != nil,
            let link = try notebook.links(of: owner).outgoing.first(where: { $0.written == String(line[found.range]) })
        {
            return try link.target.flatMap { target throws(StoreError) in try notebook.memo(id: target.id) }
        }
        return try found.reference.memo(in: notebook)
    }

    /// `textDocument/references` on a reference: each place a memo's text references that
    /// memo, in the referring memo's own file (written now) at the reference's exact range,
    /// then each place an open document does; with `includingItsFile`, the memo's own file
    /// first. The same place is given once.
    func references(
        to document: TextDocument, at position: Position, includingItsFile: Bool, openDocuments: [TextDocument],
        encoding: PositionEncoding
    ) throws(RPCError) -> JSONValue {
        var locations: [JSONValue] = []
        func add(_ location: JSONValue) { if !locations.contains(location) { locations.append(location) } }
        guard let target = try memo(under: position, in: document, encoding: encoding) else {
            // No such memo: the open documents that name it the same way.
            guard let line = document.line(position.line),
                let found = MemoReference.at(
                    encoding.index(at: position.character, in: line),
                    among: document.references(onLine: position.line))
            else { return .null }
            for open in openDocuments {
                for other in references(in: open) where other.reference == found.reference && other.memo == nil {
                    add(
                        .object([
                            ("uri", .string(open.uri)),
                            ("range", encoding.range(line: other.line, other.range, in: other.text))
                        ]))
                }
            }
            return .array(locations)
        }
        if includingItsFile { add(.object([("uri", .string(try fileURI(of: target))), ("range", Self.startOfFile)])) }
        let places = try RPCError.answering { try notebook.linkPlaces(to: target.id) }
        var referrer: Memo?
        for place in places {
            if referrer?.id != place.memoID {
                referrer = try RPCError.answering { try notebook.memo(id: place.memoID) }
            }
            guard let memo = referrer,
                let (line, text, range) = Self.line(ofBytes: place.start, length: place.length, in: memo.content)
            else { continue }
            add(
                .object([
                    ("uri", .string(try fileURI(of: memo))), ("range", encoding.range(line: line, range, in: text))
                ]))
        }
        for open in openDocuments {
            for found in references(in: open) where found.memo?.id == target.id {
                add(
                    .object([
                        ("uri", .string(open.uri)),
                        ("range", encoding.range(line: found.line, found.range, in: found.text))
                    ]))
            }
        }
        return .array(locations)
    }

    /// The line (number and text, as LSP counts lines: ended by `\n`, `\r\n` or `\r`) that
    /// holds the bytes `start..<start + length` of `text`, and their range in it; nil when they
    /// are not within one line of it.
    static func line(ofBytes start: Int, length: Int, in text: String) -> (Int, String, Swift.Range<String.Index>)? {
        let bytes = text.utf8
        guard start >= 0, length >= 0, start + length <= bytes.count else { return nil }
        var number = 0, lineStart = bytes.startIndex, index = bytes.startIndex
        let referenceStart = bytes.index(bytes.startIndex, offsetBy: start)
        while index < referenceStart {
            let byte = bytes[index]
            index = bytes.index(after: index)
            guard byte == UInt8(ascii: "\n") || byte == UInt8(ascii: "\r") else { continue }
            if byte == UInt8(ascii: "\r"), index < bytes.endIndex, bytes[index] == UInt8(ascii: "\n") {
                index = bytes.index(after: index)
            }
            number += 1
            lineStart = index
        }
        let lineEnd =
            bytes[referenceStart...].firstIndex { $0 == UInt8(ascii: "\n") || $0 == UInt8(ascii: "\r") }
            ?? bytes.endIndex
        guard bytes.distance(from: referenceStart, to: lineEnd) >= length else { return nil }
        let line = String(text[lineStart..<lineEnd])
        let lower = line.utf8.index(line.startIndex, offsetBy: bytes.distance(from: lineStart, to: referenceStart))
        return (number, line, lower..<line.utf8.index(lower, offsetBy: length))
    }

    /// `textDocument/documentLink`: every reference to an existing memo links to its file
    /// (written once per request, however often the document names the memo).
    func documentLinks(in document: TextDocument, encoding: PositionEncoding) throws(RPCError) -> JSONValue {
        var links: [JSONValue] = []
        var targets: [Int64: String] = [:]
        for found in references(in: document) {
            guard let memo = found.memo else { continue }
            let target: String
            if let known = targets[memo.id] {
                target = known
            } else {
                target = try fileURI(of: memo)
                targets[memo.id] = target
            }
            links.append(
                .object([
                    ("range", encoding.range(line: found.line, found.range, in: found.text)),
                    ("target", .string(target)),
                    ("tooltip", .string(MemoContent.title(of: memo.content)))
                ]))
        }
        return .array(links)
    }

    /// `textDocument/inlayHint`: each reference's first line (at most 40 characters) after it.
    func inlayHints(in document: TextDocument, range: PositionRange, encoding: PositionEncoding) -> JSONValue {
        let lines = max(0, range.start.line)...max(0, range.start.line, range.end.line)
        return .array(
            references(in: document, lines: lines).compactMap { found in
                guard let memo = found.memo else { return nil }
                return .object([
                    ("position", encoding.position(line: found.line, index: found.range.upperBound, in: found.text)),
                    ("label", .string(Self.shortened(TerminalText.row(MemoContent.title(of: memo.content)), to: 40))),
                    ("paddingLeft", .bool(true))
                ])
            })
    }

    /// Completion of a reference after `#` outside command files: memos newest first,
    /// narrowed by full-text search with the words typed after the `#` (or by id, for digits).
    ///
    /// Each item replaces the whole reference under the cursor, from the `#` to the end of
    /// its word (`textEdit`), so accepting `#13` in `#|1 trailing` gives `#13 trailing`.
    /// Clients filter what they are given by what they take for the typed word, each its own
    /// way, and the items are shaped for the common ones: Emacs/eglot matches the word after
    /// the `#` against `filterText`, else `insertText`, and so gets an `insertText` that starts
    /// with what was typed (the digits of an id; for words, the memo's word they begin, and
    /// its id); Neovim's omnifunc starts the word at the `#` (the `textEdit`'s start) only
    /// when an item has no `filterText`, so ids come without one.
    /// Nil when the cursor is not in a reference: no `#` where one could begin, or, in a
    /// command file, the `#` that starts a comment line.
    func completion(
        in document: TextDocument, lineNumber: Int, at column: Int, encoding: PositionEncoding
    ) -> JSONValue? {
        let line = document.line(lineNumber) ?? ""
        let cursor = encoding.index(at: column, in: line)
        let typedStart = line[..<cursor].lastIndex { !($0.isLetter || $0.isNumber || $0 == "_") }
        guard let hash = typedStart, line[hash] == "#",
            MemoReference.canStart(at: hash, in: line, syntax: document.syntax),
            !MemoReference.isColour(at: hash, in: line, syntax: document.syntax), !document.isInCodeBlock(lineNumber),
            !(document.isCommandFile && line[..<hash].allSatisfy(\.isWhitespace))
        else { return nil }
        let typed = String(line[line.index(after: hash)..<cursor])
        let wordEnd = line[cursor...].firstIndex { !($0.isLetter || $0.isNumber || $0 == "_") } ?? line.endIndex
        let range = encoding.range(line: lineNumber, hash..<wordEnd, in: line)
        let byID = typed.allSatisfy { $0.isASCII && $0.isNumber }
        let memos = (try? candidates(matching: typed)) ?? []
        let items: [JSONValue] = memos.enumerated().map { index, memo in
            var fields: [(String, JSONValue)] = [
                ("label", .string("#\(memo.id)")),
                ("kind", .integer(18)),
                ("detail", .string(TerminalText.row(memo.title))),
                ("sortText", .string(String(repeating: "0", count: max(0, 4 - String(index).count)) + String(index))),
                ("textEdit", .object([("range", range), ("newText", .string("#\(memo.id)"))]))
            ]
            if byID {
                fields.append(("insertText", .string(String(memo.id))))
            } else {
                let match = Self.completedWord(typed, in: memo.title) + " #\(memo.id)"
                fields += [("insertText", .string(match)), ("filterText", .string(match))]
            }
            return .object(fields)
        }
        return .object([("isIncomplete", .bool(true)), ("items", .array(items))])
    }

    /// `typed` completed to the first word of `text` it begins (in any case), or as typed.
    private static func completedWord(_ typed: String, in text: String) -> String {
        let words = text.split { !($0.isLetter || $0.isNumber || $0 == "_") }
        guard
            let word = words.first(where: { $0.lowercased().hasPrefix(typed.lowercased()) && $0.count >= typed.count })
        else {
            return typed
        }
        return typed + word.dropFirst(typed.count)
    }

    /// `workspace/symbol`: memos matching the query by full-text search, its last word a
    /// prefix as the query is being typed (all memos for an empty one), newest first, at
    /// most 100, each located at its own file.
    func workspaceSymbols(_ params: WorkspaceSymbolParams) throws(RPCError) -> JSONValue {
        let query = params.query.trimmingSpaces()
        var filter = MemoFilter()
        if !query.isEmpty {
            let typing = query.hasSuffix("*") || query.hasSuffix("\"") ? query : query + "*"
            guard let search = (try? SearchQuery(parsing: typing)) ?? (try? SearchQuery(parsing: query)) else {
                return .array([])
            }
            filter = MemoFilter(search: search)
        }
        let memos = try RPCError.answering { try notebook.memos(MemoQuery(filter: filter, limit: 100)).collect() }
        var symbols: [JSONValue] = []
        for memo in memos {
            symbols.append(
                .object([
                    ("name", .string(TerminalText.row(MemoContent.title(of: memo.content)))),
                    ("kind", .integer(1)),
                    ("containerName", .string("#\(memo.id)")),
                    ("location", .object([("uri", .string(try fileURI(of: memo))), ("range", Self.startOfFile)]))
                ]))
        }
        return .array(symbols)
    }

    /// Writes the memo's file; its URI.
    private func fileURI(of memo: Memo) throws(RPCError) -> String {
        guard let files = memoFiles else {
            throw .invalidParams("no folder for the memos' files: set HOME or XDG_CACHE_HOME")
        }
        do {
            return try files.write(memo)
        } catch {
            throw RPCError(code: .internalError, message: "\(error)")
        }
    }

    /// Memos for a `#` completion, newest first: all of them, or by id prefix for digits
    /// (the REPL's id completion), else by full-text search with the last word a prefix.
    private func candidates(matching typed: String) throws -> [(id: Int64, title: String)] {
        if typed.allSatisfy({ $0.isASCII && $0.isNumber }) {
            // The memo with exactly the typed id comes first, however many others start so.
            let exact = try Int64(typed).flatMap { try notebook.memo(id: $0) }
            let others = try notebook.summaries(idPrefix: typed, limit: Completer.limit).filter { $0.id != exact?.id }
            let first = exact.map { [(id: $0.id, title: MemoContent.title(of: $0.content))] } ?? []
            return Array((first + others.map { (id: $0.id, title: $0.title) }).prefix(Completer.limit))
        }
        let search = try SearchQuery(parsing: typed + "*")
        return try notebook.memos(MemoQuery(filter: MemoFilter(search: search), limit: Completer.limit)).collect()
            .map { ($0.id, MemoContent.title(of: $0.content)) }
    }

    private static let startOfFile: JSONValue = .object([
        ("start", .object([("line", .integer(0)), ("character", .integer(0))])),
        ("end", .object([("line", .integer(0)), ("character", .integer(0))]))
    ])

    private static func shortened(_ text: String, to length: Int) -> String {
        text.count <= length ? text : String(text.prefix(length - 1)) + "…"
    }
}
