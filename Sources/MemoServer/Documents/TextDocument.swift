import MemoModel
import MemoNotebook

/// An open document, kept as its lines and updated by full or incremental changes.
///
/// A document over `maximumKeptBytes` or `maximumKeptLines`, whether opened so or grown so by
/// changes, is not kept: its lines would take many times its size (a line costs more than its
/// text), and a message of newlines alone would take gigabytes. Nor is one a change to which could not be read
/// (`missedChange`): its text here is no longer the editor's. Either has no lines, and stays
/// so until a full change brings text small enough.
///
/// Lines end at `\n`, `\r\n` or `\r`, as LSP counts them; other Unicode line separators
/// (U+2028, U+0085, form feed…) are characters within a line. An incremental change edits
/// only the lines it touches, so typing in a document of 100,000 lines costs the same as in
/// one of ten, and a message of thousands of changes is answered at once. Each line keeps
/// the memo references it holds, found when the line was made, and, in Markdown, whether it
/// could be a code fence: a keystroke scans only the lines it touches.
struct TextDocument {
    let uri: String
    /// The client's language id: `memo` for command files, anything else for other text.
    let languageId: String
    /// What else a `#` and digits can be in this document.
    let syntax: ReferenceSyntax
    /// The version the client gave with the last open or change, sent back with diagnostics.
    private(set) var version: Int?
    /// An empty document is one empty line; a document not kept (`unkept`) has none.
    private var lines: [Line]
    /// The document's size in UTF-8 bytes, kept up to date by every change.
    private(set) var utf8Count: Int

    /// The lines that could open or close a fenced code block, in order (Markdown only).
    private var fenceLines: [Int] = []
    /// The lines inside fenced code blocks, fences included, as ranges in order.
    private var codeLines: [ClosedRange<Int>] = []

    /// The store's change stamp the lines' `missing` were looked up at.
    private var lookupStamp: [Int64] = []
    /// The lines whose references were not looked up since they were made, in order.
    private var unlookedLines: [Int] = []
    /// The lines with references that name no memo, in order.
    private var missingLines: [Int] = []
    /// The line the last incremental change began on (0 until one came): a document with
    /// more warnings than are sent gets the ones nearest it, so what was just typed is seen.
    private(set) var lastEditedLine = 0

    /// One line: its text, the break that ends it ("" for the last line), the references in
    /// its text, which of them name no memo (nil until looked up), and whether it could be a
    /// fence.
    private struct Line {
        var text: String
        var lineBreak: String
        var references: [MemoReference.Found]
        var missing: [MemoReference.Found]?
        var isFenceCandidate: Bool
    }

    init(uri: String, languageId: String, version: Int?, text: String) {
        self.uri = uri
        self.languageId = languageId
        syntax = ReferenceSyntax(languageId: languageId, uri: uri)
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

    /// The largest document memo keeps, in UTF-8 bytes: the most a message brings. A
    /// keystroke costs the lines it touches, so it is as quick in a document this size as in
    /// a short one (scripts/bench).
    static let maximumKeptBytes = 64 << 20
    /// The most lines memo keeps of a document: each costs some hundred bytes beyond its
    /// text, so a message of line breaks alone cannot take gigabytes.
    static let maximumKeptLines = 2_000_000

    /// Why a document is not kept.
    enum Unkept: Equatable {
        /// It has this many UTF-8 bytes and lines, more than `maximumKeptBytes` or
        /// `maximumKeptLines`.
        case tooLarge(bytes: Int, lines: Int)
        /// A change to it came in a message that could not be read.
        case missedChange
    }

    /// Why the document has no lines, or nil while it is kept.
    private(set) var unkept: Unkept?

    var isUnkept: Bool {
        unkept != nil
    }

    /// Stops keeping the document: a change to it could not be read, so its lines here are
    /// not the editor's, and references found in them would be in the wrong places.
    mutating func missChange() {
        drop(.missedChange)
    }

    private mutating func drop(_ reason: Unkept) {
        unkept = reason
        lines = []
        unlookedLines = []
        missingLines = []
        fenceLines = []
        codeLines = []
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

    /// The memo references of line `number`: none inside a fenced code block.
    func references(onLine number: Int) -> [MemoReference.Found] {
        guard lines.indices.contains(number), !lines[number].references.isEmpty, !isInCodeBlock(number) else {
            return []
        }
        return lines[number].references
    }

    /// The references, outside code, that name no memo, with their lines: the `limit`
    /// nearest the line last edited, in line order, and how many there are in all. `names`
    /// tells, for the store as it is at `stamp`. Looked up once per line until the line or the
    /// store changes, and kept with the list of lines that have such references, so a
    /// keystroke costs the lines it touched and the references given back, not the document.
    mutating func missingReferences(
        at stamp: [Int64], names: (MemoReference) -> Bool, nearest limit: Int
    ) -> (nearest: [(line: Int, found: MemoReference.Found)], total: Int) {
        if stamp != lookupStamp {
            unlookedLines = lines.indices.filter { !lines[$0].references.isEmpty }
            missingLines = []
            lookupStamp = stamp
        }
        var found: [Int] = []
        for number in unlookedLines where !lines[number].references.isEmpty {
            let missing = lines[number].references.filter { !names($0.reference) }
            lines[number].missing = missing
            if !missing.isEmpty { found.append(number) }
        }
        unlookedLines = []
        Self.merge(found, into: &missingLines)
        var total = 0
        for number in missingLines where !isInCodeBlock(number) { total += lines[number].missing?.count ?? 0 }
        // Up to `limit` on each side of the line last edited, then as many after it as
        // `limit` leaves room for beside those before it (at least half).
        let pivot = Self.index(of: lastEditedLine, in: missingLines)
        var after: [(line: Int, found: MemoReference.Found)] = []
        for number in missingLines[pivot...] where !isInCodeBlock(number) {
            if after.count >= limit { break }
            after += (lines[number].missing ?? []).map { (number, $0) }
        }
        var before: [(line: Int, found: MemoReference.Found)] = []
        for number in missingLines[..<pivot].reversed() where !isInCodeBlock(number) {
            if before.count >= limit { break }
            before += (lines[number].missing ?? []).reversed().map { (number, $0) }
        }
        let beforeCount = min(before.count, max(limit - after.count, limit / 2))
        return (before.prefix(beforeCount).reversed() + after.prefix(limit - beforeCount), total)
    }

    /// The index of the first of the ordered `numbers` at or after `number`.
    private static func index(of number: Int, in numbers: [Int]) -> Int {
        var low = 0, high = numbers.count
        while low < high {
            let middle = (low + high) / 2
            if numbers[middle] < number { low = middle + 1 } else { high = middle }
        }
        return low
    }

    /// Adds the ordered `other` to the ordered `numbers`, without repeats: the few lines a
    /// keystroke touched each where it belongs, without going through the rest.
    private static func merge(_ other: [Int], into numbers: inout [Int]) {
        guard other.count <= 64 else {
            numbers = Array(Set(numbers).union(other)).sorted()
            return
        }
        for number in other {
            let place = index(of: number, in: numbers)
            if place == numbers.count || numbers[place] != number { numbers.insert(number, at: place) }
        }
    }

    /// Line numbers after `range` was replaced by `count` lines: those before stay, those
    /// after move by the difference, those replaced go.
    private static func shift(_ numbers: inout [Int], replacing range: ClosedRange<Int>, with count: Int) {
        let lower = index(of: range.lowerBound, in: numbers), upper = index(of: range.upperBound + 1, in: numbers)
        numbers.removeSubrange(lower..<upper)
        let shift = count - range.count
        guard shift != 0 else { return }
        for place in lower..<numbers.count { numbers[place] += shift }
    }

    /// Whether line `number` is in a fenced code block (found among the few ranges by halving).
    func isInCodeBlock(_ number: Int) -> Bool {
        var low = 0, high = codeLines.count
        while low < high {
            let middle = (low + high) / 2
            if codeLines[middle].upperBound < number { low = middle + 1 } else { high = middle }
        }
        return low < codeLines.count && codeLines[low].contains(number)
    }

    /// Applies one change: the whole text, or a replacement of `range` (positions counted
    /// in `encoding`, clamped to the document).
    mutating func apply(_ newText: String, replacing range: PositionRange?, encoding: PositionEncoding) {
        guard let range else { return replaceAll(with: newText) }
        guard !isUnkept else { return }
        let start = place(of: range.start, encoding: encoding)
        let end = max(start, place(of: range.end, encoding: encoding))
        lastEditedLine = start.line
        let first = lines[start.line], last = lines[end.line]
        // The touched lines, edited, with the break that ended the last of them. Cut as
        // Unicode scalars: a change may start or end inside a grapheme cluster.
        let region =
            String(first.text.unicodeScalars[..<start.index]) + newText + String(last.text.unicodeScalars[end.index...])
            + last.lineBreak
        utf8Count +=
            region.utf8.count
            - lines[start.line...end.line].reduce(0) { $0 + $1.text.utf8.count + $1.lineBreak.utf8.count }
        let lineCount =
            lines.count - (end.line - start.line + 1) + Self.lineCount(of: region) - (last.lineBreak.isEmpty ? 0 : 1)
        if utf8Count > Self.maximumKeptBytes || lineCount > Self.maximumKeptLines {
            return drop(.tooLarge(bytes: utf8Count, lines: lineCount))
        }
        var edited = lines(of: region)
        if !last.lineBreak.isEmpty { edited.removeLast() }
        // A lone `\r` now followed by `\n` is one `\r\n` break, as in the text as a whole.
        if start.line > 0, lines[start.line - 1].lineBreak == "\r",
            let line = edited.first, line.text.isEmpty, line.lineBreak == "\n"
        {
            lines[start.line - 1].lineBreak = "\r\n"
            edited.removeFirst()
        }
        lines.replaceSubrange(start.line...end.line, with: edited)
        let replaced = start.line...end.line
        Self.shift(&missingLines, replacing: replaced, with: edited.count)
        Self.shift(&unlookedLines, replacing: replaced, with: edited.count)
        Self.merge(Array(start.line..<(start.line + edited.count)), into: &unlookedLines)
        guard syntax.isMarkdown else { return }
        Self.shift(&fenceLines, replacing: replaced, with: edited.count)
        Self.merge(edited.indices.filter { edited[$0].isFenceCandidate }.map { $0 + start.line }, into: &fenceLines)
        findCodeLines()
    }

    private mutating func replaceAll(with text: String) {
        utf8Count = text.utf8.count
        let lineCount = utf8Count > Self.maximumKeptBytes ? 0 : Self.lineCount(of: text)
        if utf8Count > Self.maximumKeptBytes || lineCount > Self.maximumKeptLines {
            return drop(.tooLarge(bytes: utf8Count, lines: lineCount))
        }
        unkept = nil
        lines = lines(of: text)
        unlookedLines = lines.indices.filter { !lines[$0].references.isEmpty }
        missingLines = []
        fenceLines = lines.indices.filter { lines[$0].isFenceCandidate }
        findCodeLines()
    }

    /// The fenced code blocks, from the fence candidates alone: a block runs from a fence to
    /// the line that closes it, or to the end of the document.
    private mutating func findCodeLines() {
        codeLines = []
        var open: (fence: MarkdownFence, line: Int)?
        for number in fenceLines {
            let text = MarkdownFence.unnested(lines[number].text)
            if let block = open {
                if block.fence.isClosed(by: text) {
                    codeLines.append(block.line...number)
                    open = nil
                }
            } else if let fence = MarkdownFence(opening: text) {
                open = (fence, number)
            }
        }
        if let block = open { codeLines.append(block.line...(lines.count - 1)) }
    }

    /// The text between two positions (counted in `encoding`, clamped to the document).
    func text(in range: PositionRange, encoding: PositionEncoding) -> String {
        guard !isUnkept else { return "" }
        let start = place(of: range.start, encoding: encoding)
        let end = max(start, place(of: range.end, encoding: encoding))
        guard start.line < end.line else {
            return String(lines[start.line].text.unicodeScalars[start.index..<end.index])
        }
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
        guard position.line < lines.count else {
            return Place(line: lines.count - 1, index: lines[lines.count - 1].text.endIndex)
        }
        let line = max(0, position.line)
        return Place(line: line, index: encoding.index(at: position.character, in: lines[line].text))
    }

    private func lines(of text: some StringProtocol) -> [Line] {
        var lines: [Line] = []
        var lineStart = text.startIndex
        for index in text.indices where Self.isLineBreak(text[index]) {
            lines.append(line(String(text[lineStart..<index]), lineBreak: String(text[index])))
            lineStart = text.index(after: index)
        }
        lines.append(line(String(text[lineStart...]), lineBreak: ""))
        return lines
    }

    private func line(_ text: String, lineBreak: String) -> Line {
        Line(
            text: text, lineBreak: lineBreak, references: MemoReference.all(in: text, syntax: syntax), missing: nil,
            isFenceCandidate: syntax.isMarkdown && MarkdownFence(opening: MarkdownFence.unnested(text)) != nil)
    }

    /// The lines `text` makes, as LSP counts them, counted without making them.
    private static func lineCount(of text: some StringProtocol) -> Int {
        var count = 1
        var previous: UInt8 = 0
        for byte in text.utf8 {
            if byte == UInt8(ascii: "\r") || (byte == UInt8(ascii: "\n") && previous != UInt8(ascii: "\r")) {
                count += 1
            }
            previous = byte
        }
        return count
    }

    private static func isLineBreak(_ character: Character) -> Bool {
        character == "\n" || character == "\r" || character == "\r\n"
    }
}
