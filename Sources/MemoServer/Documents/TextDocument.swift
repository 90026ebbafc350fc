/// An open document, kept in full and updated by full or incremental changes.
///
/// Lines end at `\n`, `\r\n` or `\r`, as LSP counts them; other Unicode line separators
/// (U+2028, U+0085, form feed…) are characters within a line.
struct TextDocument {
    let uri: String
    /// The client's language id: `memo` for command files, anything else for other text.
    let languageId: String
    /// The version the client gave with the last open or change, sent back with diagnostics.
    private(set) var version: Int?
    private(set) var text: String
    private(set) var lines: [String]

    init(uri: String, languageId: String, version: Int?, text: String) {
        self.uri = uri
        self.languageId = languageId
        self.version = version
        self.text = text
        lines = Self.lines(of: text)
    }

    /// Whether the document is a memo command file, whose lines are commands: language id
    /// `memo`, or a `.memo` file opened under another id.
    var isCommandFile: Bool {
        languageId == "memo" || uri.hasSuffix(".memo")
    }

    func line(_ number: Int) -> String? {
        lines.indices.contains(number) ? lines[number] : nil
    }

    /// Applies one change: the whole text, or a replacement of `range` (positions counted
    /// in `encoding`, clamped to the document).
    mutating func apply(_ newText: String, replacing range: PositionRange?, encoding: PositionEncoding) {
        if let range {
            let start = index(of: range.start, encoding: encoding)
            let end = max(start, index(of: range.end, encoding: encoding))
            text.replaceSubrange(start..<end, with: newText)
        } else {
            text = newText
        }
        lines = Self.lines(of: text)
    }

    /// The text between two positions (counted in `encoding`, clamped to the document).
    func text(in range: PositionRange, encoding: PositionEncoding) -> String {
        let start = index(of: range.start, encoding: encoding)
        return String(text[start..<max(start, index(of: range.end, encoding: encoding))])
    }

    mutating func setVersion(_ version: Int?) {
        if let version { self.version = version }
    }

    /// The index in `text` of an LSP position.
    private func index(of position: Position, encoding: PositionEncoding) -> String.Index {
        var lineStart = text.startIndex
        for _ in 0..<max(0, position.line) {
            guard let lineBreak = text[lineStart...].firstIndex(where: Self.isLineBreak) else { return text.endIndex }
            lineStart = text.index(after: lineBreak)
        }
        let lineEnd = text[lineStart...].firstIndex(where: Self.isLineBreak) ?? text.endIndex
        return encoding.index(at: position.character, in: text[lineStart..<lineEnd])
    }

    private static func isLineBreak(_ character: Character) -> Bool {
        character == "\n" || character == "\r" || character == "\r\n"
    }

    private static func lines(of text: String) -> [String] {
        text.split(omittingEmptySubsequences: false, whereSeparator: isLineBreak).map(String.init)
    }
}
