import MemoModel
import MemoNotebook

/// Completion and hover in open documents, from the same completer and renderer the REPL
/// uses. Command completion and id arguments belong to command files; memo references
/// (`#12`, `memo:UUID`) are understood in every document.
struct DocumentFeatures {
    let notebook: Notebook
    let encoding: PositionEncoding

    /// `textDocument/completion` in a command file: the words that can replace the one
    /// under the cursor (the whole word, also the part after the cursor).
    func completion(in line: String, lineNumber: Int, at column: Int) -> JSONValue {
        let cursor = encoding.index(at: column, in: line)
        let result = Completer(data: notebook).complete(String(line[..<cursor]))
        let wordStart = line.index(cursor, offsetBy: -result.word.count, limitedBy: line.startIndex) ?? line.startIndex
        let wordEnd = line[cursor...].firstIndex(where: \.isWhitespace) ?? line.endIndex
        let range = encoding.range(line: lineNumber, wordStart..<wordEnd, in: line)
        let items: [JSONValue] = result.items.map { completion in
            var fields: [(String, JSONValue)] = [
                ("label", .string(completion.text)),
                ("textEdit", .object([("range", range), ("newText", .string(completion.text))]))
            ]
            if let hint = completion.hint { fields.append(("detail", .string(hint))) }
            if let sortKey = completion.sortKey { fields.append(("sortText", .string(sortKey))) }
            return .object(fields)
        }
        return .object([("isIncomplete", .bool(result.isIncomplete)), ("items", .array(items))])
    }

    /// `textDocument/hover`: over a memo reference in any document, or an id argument of
    /// `show`, `edit`, `delete`, `tag` or `untag` in a command file, the memo as `show`
    /// prints it (its text as read here: links by their ids here), its stable handle, and
    /// how many memos reference it.
    func hover(
        in line: String, references: [MemoReference.Found], lineNumber: Int, at column: Int, isCommandFile: Bool,
        naming: (MemoReference.Found, String) throws(StoreError) -> Memo?
    ) throws(StoreError) -> JSONValue {
        let cursor = encoding.index(at: column, in: line)
        let target: (memo: Memo?, missing: String, range: Swift.Range<String.Index>)
        if let found = MemoReference.at(cursor, among: references) {
            let missing = notebook.ambiguity(of: found.reference) ?? "No memo \(found.reference.missingName)"
            target = (try naming(found, line), missing + ".", found.range)
        } else if isCommandFile, let (id, range) = Self.idArgument(at: cursor, in: line) {
            target = (try notebook.memo(id: id), "No memo #\(id).", range)
        } else {
            return .null
        }
        let text: String
        if let memo = target.memo {
            let renderer = TextRenderer(style: TextStyle(width: nil, color: false, displayTime: notebook.displayTime))
            var readable = memo
            readable.content = try notebook.readableText(of: memo)
            let stable = try notebook.stableReference(toUUID: memo.uuid)
            text =
                Self.codeBlock(renderer.block(readable))
                + "\n\nIts stable link, the same on every synced machine: `\(stable)`"
                + Self.backlinkNote(count: try notebook.referrerCount(of: memo.id))
        } else {
            text = target.missing
        }
        return .object([
            ("contents", .object([("kind", .string("markdown")), ("value", .string(text))])),
            ("range", encoding.range(line: lineNumber, target.range, in: line))
        ])
    }

    /// Under the memo, how many memos reference it (nothing for none).
    private static func backlinkNote(count: Int) -> String {
        switch count {
        case 0: ""
        case 1: "\n\nReferenced by 1 memo."
        default: "\n\nReferenced by \(count) memos."
        }
    }

    /// `text` as a Markdown code block whose fence is longer than any run of backticks in
    /// it, so a memo holding a fence cannot end the block early.
    static func codeBlock(_ text: String) -> String {
        var longest = 0, run = 0
        for character in text {
            run = character == "`" ? run + 1 : 0
            longest = max(longest, run)
        }
        let fence = String(repeating: "`", count: max(3, longest + 1))
        return fence + "text\n" + text + (text.hasSuffix("\n") ? "" : "\n") + fence
    }

    /// The bare memo id under the cursor where a command takes one.
    private static func idArgument(at cursor: String.Index, in line: String) -> (Int64, Swift.Range<String.Index>)? {
        var scanner = LineScanner(line)
        var words: [Word] = []
        while let word = try? scanner.nextWord() { words.append(word) }
        guard
            let position = words.firstIndex(where: {
                $0.range.map { $0.contains(cursor) || $0.upperBound == cursor } ?? false
            }),
            position > 0, let range = words[position].range,
            words[position].text.allSatisfy({ $0.isASCII && $0.isWholeNumber }), let id = Int64(words[position].text),
            let command = CommandSyntax.named(words[0].text)?.name
        else { return nil }
        switch command {
        case "show", "delete": return (id, range)
        case "edit", "tag", "untag": return position == 1 ? (id, range) : nil
        default: return nil
        }
    }
}
