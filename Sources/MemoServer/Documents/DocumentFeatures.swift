import MemoNotebook
import MemoStore

/// Completion and hover in command files, from the same completer and renderer the REPL uses.
struct DocumentFeatures {
    let notebook: Notebook
    let encoding: PositionEncoding

    /// `textDocument/completion`: the words that can finish the one before the cursor.
    func completion(in line: String, lineNumber: Int, at column: Int) -> JSONValue {
        let cursor = encoding.index(at: column, in: line)
        let (word, completions) = Completer(data: notebook).complete(String(line[..<cursor]))
        let wordStart = line.index(cursor, offsetBy: -word.count, limitedBy: line.startIndex) ?? line.startIndex
        let range = encoding.range(line: lineNumber, wordStart..<cursor, in: line)
        let items: [JSONValue] = completions.map { completion in
            var fields: [(String, JSONValue)] = [
                ("label", .string(completion.text)),
                ("textEdit", .object([("range", range), ("newText", .string(completion.text))])),
            ]
            if let hint = completion.hint { fields.append(("detail", .string(hint))) }
            return .object(fields)
        }
        return .object([("isIncomplete", .bool(false)), ("items", .array(items))])
    }

    /// `textDocument/hover`: over `#ID`, or an id argument of `show`, `edit`, `delete`, `tag`
    /// or `untag`, the memo as `show` prints it.
    func hover(in line: String, lineNumber: Int, at column: Int) throws(StoreError) -> JSONValue {
        let cursor = encoding.index(at: column, in: line)
        let words = Self.words(of: line)
        guard let position = words.firstIndex(where: { $0.range.map { $0.contains(cursor) || $0.upperBound == cursor } ?? false }),
              let id = Self.memoID(at: position, in: words), let range = words[position].range
        else { return .null }
        let text: String
        if let memo = try notebook.store.memo(id: id) {
            let renderer = TextRenderer(style: TextStyle(width: nil, color: false, displayTime: notebook.displayTime))
            text = "```text\n" + renderer.block(memo) + "```"
        } else {
            text = "No memo #\(id)."
        }
        return .object([
            ("contents", .object([("kind", .string("markdown")), ("value", .string(text))])),
            ("range", encoding.range(line: lineNumber, range, in: line)),
        ])
    }

    /// The words of a line with their ranges, as far as the line lexes.
    private static func words(of line: String) -> [Word] {
        var scanner = LineScanner(line)
        var words: [Word] = []
        while let word = try? scanner.nextWord() { words.append(word) }
        return words
    }

    /// The memo id the word at `position` names: any `#ID`, or a bare id where the command
    /// takes one.
    private static func memoID(at position: Int, in words: [Word]) -> Int64? {
        let text = words[position].text
        if text.hasPrefix("#"), let id = Int64(text.dropFirst()) { return id }
        guard position > 0, let id = Int64(text), let command = CommandSyntax.named(words[0].text)?.name else { return nil }
        switch command {
        case "show", "delete": return id
        case "edit", "tag", "untag": return position == 1 ? id : nil
        default: return nil
        }
    }
}
