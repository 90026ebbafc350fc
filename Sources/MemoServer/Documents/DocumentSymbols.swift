import MemoModel
import MemoNotebook

/// `textDocument/documentSymbol`: a Markdown document's headings (ATX `#`…`######` and
/// setext `===`/`---`, none in fenced code blocks or front matter), nested by level, as the
/// outline of a note; a memo's own file, one symbol, its title. A heading's `#` is followed
/// by a space or ends the line, so `#12` stays a memo reference and is never a heading.
/// Clients that take trees (`hierarchicalDocumentSymbolSupport`) get `DocumentSymbol`s,
/// others a flat list of `SymbolInformation` naming each heading's parent.
struct DocumentSymbols {
    let document: TextDocument
    let encoding: PositionEncoding
    let hierarchical: Bool

    /// LSP's symbol kinds: a memo's file is a `File`; a heading a `String`, as marksman has it.
    private static let fileKind: Int64 = 1
    private static let headingKind: Int64 = 15

    private struct Heading {
        let level: Int
        let line: Int
        let name: Swift.Range<String.Index>
        let text: String
        /// The last line of its section: before the next heading of its level or above.
        var lastLine: Int
        var children: [Int] = []
        var parent: Int?
    }

    /// The memo's file: its title (its first line that is not blank; `#ID` when it has none)
    /// spanning the whole document.
    func memoFile(id: Int64) -> JSONValue {
        let titleLine = document.titleLine
        let text = titleLine.flatMap(document.line) ?? ""
        let name = Self.trimmed(text, text.startIndex..<text.endIndex)
        let title = titleLine == nil ? "#\(id)" : TerminalText.row(text[name])
        return .array([
            symbol(
                title, kind: Self.fileKind, range: section(from: 0, to: max(0, document.lineCount - 1)),
                selection: encoding.range(line: titleLine ?? 0, name, in: text), children: [], container: nil)
        ])
    }

    /// A Markdown document's headings; none for any other document.
    func headings() -> JSONValue {
        guard document.syntax.isMarkdown else { return .array([]) }
        var headings: [Heading] = []
        var open: [Int] = []
        let firstLine = frontMatterEnd
        for number in firstLine..<document.lineCount where !document.isInCodeBlock(number) {
            guard let text = document.line(number),
                let (level, name) = heading(on: number, text: text, below: firstLine)
            else { continue }
            let line = level.isSetext ? number - 1 : number
            let nameText = level.isSetext ? document.line(line) ?? "" : text
            while let last = open.last, headings[last].level >= level.value {
                headings[last].lastLine = line - 1
                open.removeLast()
            }
            let index = headings.count
            headings.append(
                Heading(
                    level: level.value, line: line, name: name, text: nameText, lastLine: document.lineCount - 1,
                    parent: open.last))
            if let parent = open.last { headings[parent].children.append(index) }
            open.append(index)
        }
        if hierarchical {
            return .array(headings.indices.filter { headings[$0].parent == nil }.map { tree(of: $0, in: headings) })
        }
        return .array(
            headings.indices.map { index in
                let heading = headings[index]
                return symbol(
                    TerminalText.row(heading.text[heading.name]), kind: Self.headingKind,
                    range: section(from: heading.line, to: heading.lastLine),
                    selection: nil, children: nil,
                    container: heading.parent.map { TerminalText.row(headings[$0].text[headings[$0].name]) })
            })
    }

    private func tree(of index: Int, in headings: [Heading]) -> JSONValue {
        let heading = headings[index]
        return symbol(
            TerminalText.row(heading.text[heading.name]), kind: Self.headingKind,
            range: section(from: heading.line, to: heading.lastLine),
            selection: encoding.range(line: heading.line, heading.name, in: heading.text),
            children: heading.children.map { tree(of: $0, in: headings) }, container: nil)
    }

    /// A `DocumentSymbol` (with `selection`) or a `SymbolInformation` (without).
    private func symbol(
        _ name: String, kind: Int64, range: JSONValue, selection: JSONValue?, children: [JSONValue]?,
        container: String?
    ) -> JSONValue {
        guard hierarchical, let selection else {
            var fields: [(String, JSONValue)] = [
                ("name", .string(name)), ("kind", .integer(kind)),
                ("location", .object([("uri", .string(document.uri)), ("range", range)]))
            ]
            if let container { fields.append(("containerName", .string(container))) }
            return .object(fields)
        }
        return .object([
            ("name", .string(name)), ("kind", .integer(kind)), ("range", range), ("selectionRange", selection),
            ("children", .array(children ?? []))
        ])
    }

    /// From the start of line `first` to the end of line `last`.
    private func section(from first: Int, to last: Int) -> JSONValue {
        let end = document.line(last) ?? ""
        return .object([
            ("start", Position(line: first, character: 0).json),
            ("end", encoding.position(line: last, index: end.endIndex, in: end))
        ])
    }

    /// The line after a YAML front matter block (`---` on the first line to `---` or `...`),
    /// whose closing `---` is no heading's underline; 0 when there is none.
    private var frontMatterEnd: Int {
        guard document.line(0) == "---" else { return 0 }
        for number in 1..<max(1, document.lineCount) where ["---", "..."].contains(document.line(number)) {
            return number + 1
        }
        return 0
    }

    private struct Level {
        let value: Int
        let isSetext: Bool
    }

    /// The heading line `number` makes: an ATX heading on it, or the setext underline of the
    /// paragraph line before it (from `firstLine` on); its level and its name's range (on the
    /// line before, for setext).
    private func heading(on number: Int, text: String, below firstLine: Int) -> (Level, Swift.Range<String.Index>)? {
        if let (level, name) = Self.atxHeading(text) {
            return name.isEmpty ? nil : (Level(value: level, isSetext: false), name)
        }
        guard let level = Self.setextLevel(text), number > firstLine, !document.isInCodeBlock(number - 1),
            let above = document.line(number - 1), Self.isParagraphText(above)
        else { return nil }
        return (Level(value: level, isSetext: true), Self.trimmed(above, above.startIndex..<above.endIndex))
    }

    /// `# Title`, `## Title ##`: up to three spaces, one to six `#`, then a space, a tab or the
    /// line's end; the name without its closing `#`s.
    static func atxHeading(_ line: String) -> (level: Int, name: Swift.Range<String.Index>)? {
        let indented = line.drop { $0 == " " }
        guard line.count - indented.count <= 3 else { return nil }
        let hashes = indented.prefix { $0 == "#" }
        guard (1...6).contains(hashes.count) else { return nil }
        let rest = indented[hashes.endIndex...]
        guard rest.isEmpty || rest.first == " " || rest.first == "\t" else { return nil }
        var name = trimmed(line, rest.startIndex..<rest.endIndex)
        let closing = line[name].reversed().prefix { $0 == "#" }.count
        if closing > 0 {
            let closingStart = line.index(name.upperBound, offsetBy: -closing)
            if closingStart == name.lowerBound {
                name = closingStart..<closingStart
            } else if [" ", "\t"].contains(line[line.index(before: closingStart)]) {
                name = trimmed(line, name.lowerBound..<closingStart)
            }
        }
        return (hashes.count, name)
    }

    /// 1 for a line of `=`, 2 for one of `-` (up to three spaces before, spaces after).
    private static func setextLevel(_ line: String) -> Int? {
        let indented = line.drop { $0 == " " }
        guard line.count - indented.count <= 3, let mark = indented.first, mark == "=" || mark == "-" else {
            return nil
        }
        let run = indented.prefix { $0 == mark }
        guard indented[run.endIndex...].allSatisfy({ $0 == " " || $0 == "\t" }) else { return nil }
        return mark == "=" ? 1 : 2
    }

    /// A line a setext underline makes a heading of: text that is not blank, indented code,
    /// an ATX heading, a list item, a quote, a fence or an underline itself.
    private static func isParagraphText(_ line: String) -> Bool {
        let indented = line.drop { $0 == " " }
        guard line.count - indented.count <= 3, let first = indented.first, !first.isWhitespace else { return false }
        return atxHeading(line) == nil && setextLevel(line) == nil && MarkdownFence(opening: line) == nil
            && MarkdownFence.unnested(line) == indented
    }

    /// `range` of `line` without the white space at its ends.
    private static func trimmed(_ line: String, _ range: Swift.Range<String.Index>) -> Swift.Range<String.Index> {
        var lower = range.lowerBound, upper = range.upperBound
        while lower < upper, line[lower].isWhitespace { lower = line.index(after: lower) }
        while upper > lower, line[line.index(before: upper)].isWhitespace { upper = line.index(before: upper) }
        return lower..<upper
    }
}

extension TextDocument {
    /// The line that holds the title of a memo's text: the first that is not blank.
    var titleLine: Int? {
        (0..<lineCount).first { !(line($0) ?? "").allSatisfy(\.isWhitespace) }
    }
}
