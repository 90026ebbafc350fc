/// An open document, kept as its lines and updated by full or incremental changes.
///
/// A document over `maximumKeptBytes` is not kept: its lines would take many times its size
/// (a line costs more than its text), and a message of newlines alone would take gigabytes.
/// It has no lines, and stays so until a full change brings text small enough.
///
/// Lines end at `\n`, `\r\n` or `\r`, as LSP counts them; other Unicode line separators
/// (U+2028, U+0085, form feed…) are characters within a line. An incremental change edits
/// only the lines it touches, so typing in a document of 100,000 lines costs the same as in
/// one of ten, and a message of thousands of changes is answered at once.
struct TextDocument {
    let uri: String
    /// The client's language id: `memo` for command files, anything else for other text.
    let languageId: String
    /// The version the client gave with the last open or change, sent back with diagnostics.
    private(set) var version: Int?
    /// An empty document is one empty line; a document too large to keep has none.
    private var lines: [Line]
    /// The document's size in UTF-8 bytes, kept up to date by every change.
    private(set) var utf8Count: Int

    /// One line: its text, and the break that ends it ("" for the last line).
    private struct Line {
        var text: String
        var lineBreak: String
    }

    init(uri: String, languageId: String, version: Int?, text: String) {
        self.uri = uri
        self.languageId = languageId
        self.version = version
        lines = []
        utf8Count = 0
        replaceAll(with: text)
    }

    /// Whether the document is a memo command file, whose lines are commands: language id
    /// `memo`, or a `.memo` file opened under another id.
    var isCommandFile: Bool {
        languageId == "memo" || uri.hasSuffix(".memo")
    }

    /// The largest document memo keeps: the size of the longest line memo reads elsewhere.
    static let maximumKeptBytes = 4 << 20

    var isTooLargeToKeep: Bool {
        lines.isEmpty
    }

    var lineCount: Int { lines.count }

    /// The whole text, put together from the lines: for a save, not for every keystroke.
    var text: String {
        var text = ""
        text.reserveCapacity(utf8Count)
        for line in lines { text += line.text + line.lineBreak }
        return text
    }

    func line(_ number: Int) -> String? {
        lines.indices.contains(number) ? lines[number].text : nil
    }

    /// Applies one change: the whole text, or a replacement of `range` (positions counted
    /// in `encoding`, clamped to the document).
    mutating func apply(_ newText: String, replacing range: PositionRange?, encoding: PositionEncoding) {
        guard let range else { return replaceAll(with: newText) }
        guard !isTooLargeToKeep else { return }
        let start = place(of: range.start, encoding: encoding)
        let end = max(start, place(of: range.end, encoding: encoding))
        let first = lines[start.line], last = lines[end.line]
        // The touched lines, edited, with the break that ended the last of them. Cut as
        // Unicode scalars: a change may start or end inside a grapheme cluster.
        let region = String(first.text.unicodeScalars[..<start.index]) + newText + String(last.text.unicodeScalars[end.index...])
            + last.lineBreak
        var edited = Self.lines(of: region)
        if !last.lineBreak.isEmpty { edited.removeLast() }
        // A lone `\r` now followed by `\n` is one `\r\n` break, as in the text as a whole.
        if start.line > 0, lines[start.line - 1].lineBreak == "\r",
           let line = edited.first, line.text.isEmpty, line.lineBreak == "\n" {
            lines[start.line - 1].lineBreak = "\r\n"
            edited.removeFirst()
        }
        utf8Count += region.utf8.count - lines[start.line...end.line].reduce(0) { $0 + $1.text.utf8.count + $1.lineBreak.utf8.count }
        lines.replaceSubrange(start.line...end.line, with: edited)
    }

    private mutating func replaceAll(with text: String) {
        utf8Count = text.utf8.count
        lines = utf8Count > Self.maximumKeptBytes ? [] : Self.lines(of: text)
    }

    /// The text between two positions (counted in `encoding`, clamped to the document).
    func text(in range: PositionRange, encoding: PositionEncoding) -> String {
        guard !isTooLargeToKeep else { return "" }
        let start = place(of: range.start, encoding: encoding)
        let end = max(start, place(of: range.end, encoding: encoding))
        guard start.line < end.line else { return String(lines[start.line].text.unicodeScalars[start.index..<end.index]) }
        var text = String(lines[start.line].text.unicodeScalars[start.index...]) + lines[start.line].lineBreak
        for line in lines[(start.line + 1)..<end.line] { text += line.text + line.lineBreak }
        return text + String(lines[end.line].text.unicodeScalars[..<end.index])
    }

    mutating func setVersion(_ version: Int?) {
        if let version { self.version = version }
    }

    /// A position in the document: a line and an index in its text.
    private struct Place: Comparable {
        var line: Int
        var index: String.Index

        static func < (lhs: Place, rhs: Place) -> Bool {
            (lhs.line, lhs.index) < (rhs.line, rhs.index)
        }
    }

    /// Where an LSP position falls: past the last line is the end of the document, past the
    /// end of a line is the end of that line.
    private func place(of position: Position, encoding: PositionEncoding) -> Place {
        guard position.line < lines.count else { return Place(line: lines.count - 1, index: lines[lines.count - 1].text.endIndex) }
        let line = max(0, position.line)
        return Place(line: line, index: encoding.index(at: position.character, in: lines[line].text))
    }

    private static func lines(of text: some StringProtocol) -> [Line] {
        var lines: [Line] = []
        var lineStart = text.startIndex
        for index in text.indices where isLineBreak(text[index]) {
            lines.append(Line(text: String(text[lineStart..<index]), lineBreak: String(text[index])))
            lineStart = text.index(after: index)
        }
        lines.append(Line(text: String(text[lineStart...]), lineBreak: ""))
        return lines
    }

    private static func isLineBreak(_ character: Character) -> Bool {
        character == "\n" || character == "\r" || character == "\r\n"
    }
}
