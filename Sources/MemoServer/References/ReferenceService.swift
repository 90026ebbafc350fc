import MemoModel
import MemoNotebook

/// Memo references (`#12`, `memo:UUID`, `memo:8e75e0e6`) in every open document
/// (docs/REFERENCE.md, References in documents): diagnostics for missing memos, definition and
/// links to the memos' own files, inlay hints, completion after `#` and `memo:`, the stable
/// form of references written outside the store (`StableReferences.swift`), and workspace
/// symbols. It reads documents the `DocumentTable` hands it, and keeps the memos' own files in
/// step with the store.
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
    /// The memos' own files, for go to definition; nil when there is no folder for them, and
    /// for an encrypted store, whose text is written nowhere else (`fileURI` says why).
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
                    missingMessage(for: found.reference)))
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

    /// `textDocument/definition` on a reference: the memo's own file, written now. On an
    /// encrypted store, an error that says why there is none (`fileURI`).
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
        guard let (line, found) = reference(under: position, in: document, encoding: encoding) else { return nil }
        return try RPCError.answering { try memo(named: found, on: line, in: document) }
    }

    /// The memo reference `found` on `line` of `document` names, as the reference says. A
    /// memo's own file shows the memo's text as read here, each `#ID` link by its memo's id
    /// here (`Notebook.readableText`), so there too a `#ID` is the memo with that id; but a
    /// `#ID` the memo's text holds as words (it named no memo when written, or was unlinked)
    /// names none, unless one of its links reads so too.
    func memo(named found: MemoReference.Found, on line: String, in document: TextDocument) throws(StoreError) -> Memo?
    {
        if case .id(let id) = found.reference, let owner = memoFiles?.id(ofURI: document.uri),
            try notebook.memo(id: owner) != nil
        {
            let links = try notebook.links(of: owner).outgoing, written = String(line[found.range])
            if links.contains(where: { $0.namedUUID == nil && $0.written == written }),
                !links.contains(where: { $0.target?.id == id })
            {
                return nil
            }
        }
        return try found.reference.memo(in: notebook)
    }

    /// `textDocument/references` on a reference, or anywhere else in a memo's own file (which
    /// is that memo): each place a memo's text references that memo, in the referring memo's
    /// own file (written now) at the reference's exact range, then each place an open document
    /// does, then each place a closed file of the workspace does (`closedFiles`, asked only
    /// when there is something to look for); with `includingItsFile`, the memo's own file
    /// first. The same place is given once. Linear in the places given: a note citing a memo
    /// on each of thousands of lines is answered as fast as it is read.
    func references(
        to document: TextDocument, at position: Position, includingItsFile: Bool, openDocuments: [TextDocument],
        closedFiles: () -> [WorkspaceIndex.Line], encoding: PositionEncoding
    ) throws(RPCError) -> JSONValue {
        var locations = Locations()
        func add(_ uri: String, line: Int, _ range: Swift.Range<String.Index>, in text: String) {
            locations.add(
                uri, line: line, encoding.column(of: range.lowerBound, in: text),
                encoding.column(of: range.upperBound, in: text))
        }
        let line = document.line(position.line)
        let found = line.flatMap { line in
            MemoReference.at(
                encoding.index(at: position.character, in: line), among: document.references(onLine: position.line))
        }
        let target: Memo?
        if let found, let line {
            target = try RPCError.answering { try memo(named: found, on: line, in: document) }
        } else if let owner = memoFiles?.id(ofURI: document.uri) {
            target = try RPCError.answering { try notebook.memo(id: owner) }
        } else {
            return .null
        }
        refreshLookups()
        guard let target else {
            // No such memo: the documents that name it the same way.
            guard let found else { return .null }
            for open in openDocuments {
                for other in references(in: open) where other.reference == found.reference && other.memo == nil {
                    add(open.uri, line: other.line, other.range, in: other.text)
                }
            }
            for closed in closedFiles() {
                for other in closed.references where other.reference == found.reference {
                    add(closed.uri, line: closed.number, other.range, in: closed.text)
                }
            }
            return locations.json
        }
        // An encrypted store's memos have no files: only documents' places are given.
        let sealed = notebook.isStoreSealed
        if includingItsFile && !sealed { locations.add(try fileURI(of: target), line: 0, 0, 0) }
        let places = sealed ? [] : try RPCError.answering { try notebook.linkPlaces(to: target.id) }
        // The places come by memo, in text order: each memo's file is written once and its
        // text read once, from each place on to the next.
        var referrer: (memo: Memo, uri: String, lines: TextLines)?
        for place in places {
            if referrer?.memo.id != place.memoID {
                guard let memo = try RPCError.answering({ try notebook.memo(id: place.memoID) }) else { continue }
                referrer = (memo, try fileURI(of: memo), TextLines(memo.content))
            }
            guard let (line, text, range) = referrer?.lines.line(ofBytes: place.start, length: place.length),
                let uri = referrer?.uri
            else { continue }
            add(uri, line: line, range, in: text)
        }
        for open in openDocuments {
            for found in references(in: open) where found.memo?.id == target.id {
                add(open.uri, line: found.line, found.range, in: found.text)
            }
        }
        for closed in closedFiles() {
            for other in closed.references where memo(named: other.reference)?.id == target.id {
                add(closed.uri, line: closed.number, other.range, in: closed.text)
            }
        }
        return locations.json
    }

    /// `textDocument/documentLink`: every reference to an existing memo links to its file
    /// (written once per request, however often the document names the memo). None on an
    /// encrypted store, whose memos have no files (editors ask for links unbidden: no error).
    func documentLinks(in document: TextDocument, encoding: PositionEncoding) throws(RPCError) -> JSONValue {
        guard !notebook.isStoreSealed else { return .array([]) }
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

    /// `textDocument/inlayHint`: each reference's first line (at most 40 characters) after
    /// it, as a person here reads it (`Notebook.readableText`: its links by their ids here).
    func inlayHints(in document: TextDocument, range: PositionRange, encoding: PositionEncoding) -> JSONValue {
        let lines = max(0, range.start.line)...max(0, range.start.line, range.end.line)
        return .array(
            references(in: document, lines: lines).compactMap { found in
                guard let memo = found.memo else { return nil }
                return .object([
                    ("position", encoding.position(line: found.line, index: found.range.upperBound, in: found.text)),
                    (
                        "label",
                        .string(Self.shortened(TerminalText.row(MemoContent.title(of: readableText(of: memo))), to: 40))
                    ),
                    ("paddingLeft", .bool(true))
                ])
            })
    }

    /// Completion of a reference after `#` (outside a command file's comment `#`) or after
    /// `memo:`: memos newest first, narrowed by full-text search with the words typed (or
    /// by id for digits after `#`, by the uuid's first digits for hex digits after `memo:`).
    /// Outside the store it inserts the stable form, `memo:HANDLE`; in the store's own texts
    /// `#ID` after a `#` (`writesStableReferences`).
    ///
    /// Each item replaces the whole reference under the cursor, from the `#` or `memo:` to
    /// the end of its word (`textEdit`), so accepting `#13` in `#|1 trailing` gives
    /// `#13 trailing`. Clients filter what they are given by what they take for the typed
    /// word, each its own way, and the items are shaped for the common ones: Emacs/eglot
    /// matches the word after the `#` or `memo:` against `filterText`, else `insertText`, and
    /// so gets an `insertText` that starts with what was typed (the digits of an id or a
    /// handle; for words, the memo's word they begin, and its reference); Neovim's omnifunc
    /// starts the word at the reference (the `textEdit`'s start) only when an item has no
    /// `filterText`, so ids and handles come without one.
    /// Nil when the cursor is not in a reference: no `#` or `memo:` where one could begin,
    /// or, in a command file, the `#` that starts a comment line.
    func completion(
        in document: TextDocument, lineNumber: Int, at column: Int, encoding: PositionEncoding
    ) -> JSONValue? {
        let line = document.line(lineNumber) ?? ""
        let cursor = encoding.index(at: column, in: line)
        guard let mark = line[..<cursor].lastIndex(where: { !($0.isLetter || $0.isNumber || $0 == "_") }),
            !document.isInCodeBlock(lineNumber), let start = Self.referenceStart(at: mark, in: line, of: document)
        else { return nil }
        let typed = String(line[line.index(after: mark)..<cursor])
        let wordEnd = line[cursor...].firstIndex { !($0.isLetter || $0.isNumber || $0 == "_") } ?? line.endIndex
        let range = encoding.range(line: lineNumber, start..<wordEnd, in: line)
        let afterPrefix = line[mark] == ":"
        let stable = afterPrefix || writesStableReferences(in: document)
        let byNumber =
            afterPrefix
            ? typed.count < 32 && typed.allSatisfy { $0.isASCII && $0.isHexDigit }
            : typed.allSatisfy { $0.isASCII && $0.isNumber }
        let memos =
            (try? afterPrefix && byNumber ? candidates(uuidStartingWith: typed) : candidates(matching: typed)) ?? []
        let items: [JSONValue] = memos.enumerated().compactMap { index, memo in
            let written = stable ? (try? memo.uuid()).flatMap { try? notebook.stableReference(toUUID: $0) } : nil
            if stable && written == nil { return nil }
            let reference = written ?? "#\(memo.id)"
            var fields: [(String, JSONValue)] = [
                ("label", .string(reference)),
                ("kind", .integer(18)),
                ("detail", .string(TerminalText.row(stable ? "#\(memo.id) \(memo.title)" : memo.title))),
                ("sortText", .string(String(repeating: "0", count: max(0, 4 - String(index).count)) + String(index))),
                ("textEdit", .object([("range", range), ("newText", .string(reference))]))
            ]
            if byNumber {
                fields.append(("insertText", .string(afterPrefix ? String(reference.dropFirst(5)) : String(memo.id))))
            } else {
                let match = Self.completedWord(typed, in: memo.title) + " " + reference
                fields += [("insertText", .string(match)), ("filterText", .string(match))]
            }
            return .object(fields)
        }
        return .object([("isIncomplete", .bool(true)), ("items", .array(items))])
    }

    /// Where a reference being typed starts, given the last character before the cursor
    /// that is not part of a word (`mark`): a `#` that can begin a reference (not a colour,
    /// nor a command file's comment), or the `:` of a `memo:` that can; nil otherwise.
    private static func referenceStart(
        at mark: String.Index, in line: String, of document: TextDocument
    )
        -> String.Index?
    {
        if line[mark] == "#" {
            guard MemoReference.canStart(at: mark, in: line, syntax: document.syntax),
                !MemoReference.isColour(at: mark, in: line, syntax: document.syntax),
                !(document.isCommandFile && line[..<mark].allSatisfy(\.isWhitespace))
            else { return nil }
            return mark
        }
        let prefix = "memo:"
        guard line[mark] == ":",
            let start = line.index(mark, offsetBy: -(prefix.count - 1), limitedBy: line.startIndex),
            line[start...mark].lowercased() == prefix,
            MemoReference.canStart(at: start, in: line, syntax: document.syntax)
        else { return nil }
        return start
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
    /// most 100, each located at its own file. Refused on an encrypted store, whose memos have
    /// no files.
    func workspaceSymbols(_ params: WorkspaceSymbolParams) throws(RPCError) -> JSONValue {
        if notebook.isStoreSealed {
            throw sealedStoreRefusal(
                "memo's workspace symbols are its memos' own files, and an encrypted store's have none")
        }
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

    /// `memo`'s text as a person here reads it, or as stored when the store cannot say.
    func readableText(of memo: Memo) -> String {
        (try? notebook.readableText(of: memo)) ?? memo.content
    }

    /// Whether `text` is what `memo`'s own file shows of it (its readable text); an editor
    /// may have ended it with a line break.
    func isReadableText(_ text: String, of memo: Memo) -> Bool {
        let readable = readableText(of: memo)
        return text == readable || text == readable + "\n"
    }

    /// Writes the memo's file; its URI. An encrypted store's memo has none: the error says
    /// so, which both eglot and Neovim show as the answer to go to definition (an empty
    /// answer would show only "no definition found").
    func fileURI(of memo: Memo) throws(RPCError) -> String {
        if notebook.isStoreSealed { throw sealedStoreRefusal("memo #\(memo.id) has no file to open") }
        guard let files = memoFiles else {
            throw .invalidParams("no folder for the memos' files: set HOME or XDG_CACHE_HOME")
        }
        do {
            return try files.write(memo, text: readableText(of: memo))
        } catch {
            throw RPCError(code: .internalError, message: "\(error)")
        }
    }

    /// The answer to a request for a memo's own file on an encrypted store: `what` was
    /// refused, and why.
    func sealedStoreRefusal(_ what: String) -> RPCError {
        RPCError(
            code: .requestFailed,
            message: "\(what): \(notebook.storeLocation.displayPath) is encrypted, and memo writes no memo's text "
                + "to a file outside it; hover over a reference to read its memo")
    }

    /// A memo a completion offers: its id and first line, and its uuid, looked up when an
    /// item needs it (a stable reference).
    private struct Candidate {
        let id: Int64
        let title: String
        let uuid: () throws(StoreError) -> String?
    }

    private func candidate(id: Int64, title: String, uuid: String? = nil) -> Candidate {
        Candidate(id: id, title: title) { () throws(StoreError) -> String? in
            if let uuid { return uuid }
            return try self.notebook.memo(id: id)?.uuid
        }
    }

    /// Memos for a completion, newest first: all of them, or by id prefix for digits
    /// (the REPL's id completion), else by full-text search with the last word a prefix.
    private func candidates(matching typed: String) throws -> [Candidate] {
        if typed.allSatisfy({ $0.isASCII && $0.isNumber }) {
            // The memo with exactly the typed id comes first, however many others start so.
            let exact = try Int64(typed).flatMap { try notebook.memo(id: $0) }
            let others = try notebook.summaries(idPrefix: typed, limit: Completer.limit).filter { $0.id != exact?.id }
            let first = exact.map { [candidate(id: $0.id, title: MemoContent.title(of: $0.content), uuid: $0.uuid)] }
            return Array(((first ?? []) + others.map { candidate(id: $0.id, title: $0.title) }).prefix(Completer.limit))
        }
        let search = try SearchQuery(parsing: typed + "*")
        return try notebook.memos(MemoQuery(filter: MemoFilter(search: search), limit: Completer.limit)).collect()
            .map { candidate(id: $0.id, title: MemoContent.title(of: $0.content), uuid: $0.uuid) }
    }

    /// Memos for a completion after `memo:` and hexadecimal digits: those whose uuid starts
    /// with them, newest first.
    private func candidates(uuidStartingWith digits: String) throws -> [Candidate] {
        try notebook.memos(uuidStartingWith: digits, limit: Completer.limit).compactMap { found in
            try notebook.memo(id: found.id).map {
                candidate(id: $0.id, title: MemoContent.title(of: $0.content), uuid: $0.uuid)
            }
        }
    }

    private static let startOfFile: JSONValue = .object([
        ("start", .object([("line", .integer(0)), ("character", .integer(0))])),
        ("end", .object([("line", .integer(0)), ("character", .integer(0))]))
    ])

    private static func shortened(_ text: String, to length: Int) -> String {
        text.count <= length ? text : String(text.prefix(length - 1)) + "…"
    }
}
