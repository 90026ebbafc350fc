import MemoStore

/// Writes memos in one export format, one at a time, so exporting a million memos keeps
/// memory flat: `begin`, then `write` for each memo in order, then `end`.
package protocol MemoWriter {
    mutating func begin(to output: OutputSink)
    /// Writes the memo the row stands on (read it before the cursor moves).
    mutating func write(_ row: MemoRow, to output: OutputSink)
    mutating func end(to output: OutputSink)
}

extension TransferFormat {
    /// The writer of this format; markdown heads its days in `displayTime`.
    func writer(displayTime: DisplayTime) -> any MemoWriter {
        switch self {
        case .jsonl, .coredata, .jrnl: JSONLinesWriter()
        case .json: JSONArrayWriter()
        case .markdown: MarkdownWriter(displayTime: displayTime)
        }
    }
}

/// The memo object of an export: the one of docs/REFERENCE.md, JSON, with the memo's sync version
/// as its `sync` member when the store keeps one (`MemoVersion`), so a store made by importing the
/// file holds the same version as this one. Other programs may ignore the member.
enum ExportRecord {
    static func appendLine(of row: MemoRow, to bytes: inout [UInt8]) {
        JSONRenderer.appendJSONLine(of: row, to: &bytes)
        row.withVersion { append(member: "sync", $0, to: &bytes) }
        row.withLinks { append(member: "links", $0, to: &bytes) }
    }

    /// Puts `"name":value` (JSON text, when it is valid UTF-8) last in the object line `bytes`.
    private static func append(member name: String, _ value: UnsafeRawBufferPointer?, to bytes: inout [UInt8]) {
        guard let value, ByteText.isValid(value) else { return }
        bytes.removeLast(2)
        bytes += #","\#(name)":"#.utf8
        bytes += value
        bytes += "}\n".utf8
    }

    /// The `links` member's JSON text (the memos the references name, by uuid), when the memo
    /// has links: a store made by importing the file names the same memos, whatever their ids.
    static func links(of row: MemoRow) -> String? {
        row.withLinks { links in
            guard let links, ByteText.isValid(links) else { return nil }
            return String(decoding: links, as: UTF8.self)
        }
    }

    /// The `sync` member's JSON text, for Markdown's comment.
    static func version(of row: MemoRow) -> String? {
        row.withVersion { version in
            guard let version, ByteText.isValid(version) else { return nil }
            return String(decoding: version, as: UTF8.self)
        }
    }
}

/// One memo object per line (docs/REFERENCE.md, JSON): what `--json list` prints, with
/// `ExportRecord`'s member.
struct JSONLinesWriter: MemoWriter {
    /// The line being written, kept so each memo does not allocate one.
    private var line: [UInt8] = []

    func begin(to output: OutputSink) {}

    mutating func write(_ row: MemoRow, to output: OutputSink) {
        ExportRecord.appendLine(of: row, to: &line)
        output.write(utf8: line)
        line.removeAll(keepingCapacity: true)
    }

    func end(to output: OutputSink) {}
}

/// One JSON array of memo objects, an element per line.
struct JSONArrayWriter: MemoWriter {
    private var isFirst = true
    /// The element being written, kept so each memo does not allocate one.
    private var element: [UInt8] = []

    func begin(to output: OutputSink) {
        output.write("[")
    }

    mutating func write(_ row: MemoRow, to output: OutputSink) {
        element += (isFirst ? "\n" : ",\n").utf8
        ExportRecord.appendLine(of: row, to: &element)
        element.removeLast()
        output.write(utf8: element)
        element.removeAll(keepingCapacity: true)
        isFirst = false
    }

    func end(to output: OutputSink) {
        output.write(isFirst ? "]\n" : "\n]\n")
    }
}

/// Markdown for people: a heading per day, an item per memo with its text (further lines
/// indented by two spaces), and the memo's uuid, dates, tags, sync version and links in a
/// one-line HTML comment (`MarkdownMetadata`) that Markdown viewers hide and `import` reads
/// back, so nothing is lost. A text that would not
/// read back as it is (`MarkdownFormat.readsBackAsItem`) is also kept whole in the comment.
struct MarkdownWriter: MemoWriter {
    let displayTime: DisplayTime
    private var currentDay: String?

    init(displayTime: DisplayTime) {
        self.displayTime = displayTime
    }

    func begin(to output: OutputSink) {
        output.write("# Memos\n")
    }

    mutating func write(_ row: MemoRow, to output: OutputSink) {
        let memo = row.memo
        let day = String(displayTime.format(memo.insertDate).prefix(10))
        if day != currentDay {
            output.write("\n## \(day)\n\n")
            currentDay = day
        }
        let isReadable = MarkdownFormat.readsBackAsItem(memo.content)
        let shown = isReadable ? memo.content : MarkdownFormat.visible(memo.content)
        let lines = shown.split(separator: "\n", omittingEmptySubsequences: false)
        var text = "- " + lines[0] + "\n"
        for line in lines.dropFirst() { text += "  " + line + "\n" }
        let metadata = MarkdownMetadata.fields(
            of: memo, carriesText: !isReadable, version: ExportRecord.version(of: row),
            links: ExportRecord.links(of: row))
        output.write(text + "  " + MarkdownFormat.metadataPrefix + metadata + MarkdownFormat.metadataSuffix + "\n")
    }

    func end(to output: OutputSink) {}
}
