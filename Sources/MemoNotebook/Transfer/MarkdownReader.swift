import FoundationEssentials
import MemoStore

/// Markdown as `export --format markdown` writes it, and as people write it. Nothing in a
/// file is dropped: each block becomes a memo.
/// - An item starts with `- `; its further lines are indented by two spaces. Its metadata
///   comment (`MarkdownFormat`), when there, ends it and restores its uuid, dates and tags,
///   and its text when the comment carries `"content"`.
/// - A paragraph (lines up to a blank line, an item, a heading or a fence) is a memo as
///   written.
/// - A fenced code block (three or more backticks or tildes, up to the closing fence or the
///   end of the file) is a memo as written, fences included: what is inside is code, not
///   items or headings.
/// - A heading is a memo of its own, as written (`# Title`), except the export's own
///   structure: the title `# Memos` on the first line, and a heading that is only a day,
///   `## YYYY-MM-DD`. A heading that starts with a day also dates what follows it.
/// A memo without a metadata comment is dated at the start of its heading's day (in the
/// display time zone), or gets the session's time when no day heading came before it.
struct MarkdownReader: RecordReader {
    let file: ImportFile
    let displayTime: DisplayTime
    private let lines: LineReader
    private var lineNumber = 0
    private var day: CivilDate?
    /// A line read ahead that belongs to the next block.
    private var pending: (text: String, number: Int)?

    init(file: ImportFile, displayTime: DisplayTime) {
        self.file = file
        self.displayTime = displayTime
        lines = LineReader(descriptor: file.descriptor, maximumBytes: ImportFile.maximumRecordBytes)
    }

    var progress: Double? { file.progress }

    mutating func next() throws(LocatedError) -> ImportRecord? {
        while let (line, number) = try nextLine() {
            if line.allSatisfy(\.isWhitespace) { continue }
            if let fence = MarkdownFence(opening: line) {
                return try fencedBlock(startingWith: line, fence: fence, at: number)
            }
            if line.hasPrefix("- ") { return try item(startingWith: String(line.dropFirst(2)), at: number) }
            guard Self.isHeading(line) else { return try paragraph(startingWith: line, at: number) }
            let headingDay = Self.day(in: line)
            if let headingDay { day = headingDay }
            let isStructure =
                (number == 1 && line == "# Memos") || (headingDay != nil && line.split(separator: " ").count == 2)
            if !isStructure { return dated(ImportRecord(content: line, line: number)) }
        }
        return nil
    }

    /// The item whose first line is `first`: its continuation lines, blank lines inside it,
    /// and its metadata comment, which ends it.
    private mutating func item(startingWith first: String, at number: Int) throws(LocatedError) -> ImportRecord {
        var text = [first]
        var blanks = 0
        while let (line, lineNumber) = try nextLine() {
            if !line.hasPrefix("  "), line.allSatisfy(\.isWhitespace) {
                blanks += 1
                continue
            }
            guard line.hasPrefix("  ") else {
                pending = (line, lineNumber)
                break
            }
            let content = String(line.dropFirst(2))
            if content.hasPrefix(MarkdownFormat.metadataPrefix), content.hasSuffix(MarkdownFormat.metadataSuffix) {
                return try record(text.joined(separator: "\n"), at: number, metadata: content, metadataLine: lineNumber)
            }
            text += Array(repeating: "", count: blanks) + [content]
            blanks = 0
        }
        return dated(ImportRecord(content: text.joined(separator: "\n"), line: number))
    }

    /// The record of an item with its metadata comment: the comment's fields, its text
    /// unless the comment carries the text itself.
    private func record(
        _ text: String, at number: Int, metadata comment: String, metadataLine: Int
    ) throws(LocatedError) -> ImportRecord {
        let fields = comment.dropFirst(MarkdownFormat.metadataPrefix.count).dropLast(
            MarkdownFormat.metadataSuffix.count)
        let metadata =
            fields.hasPrefix("{")
            ? try? JSONValue.parse(fields.utf8) : MarkdownMetadata.object(ofFields: fields, itemText: text)
        guard case .object(var members)? = metadata else {
            throw file.error(
                .invalid(
                    fields.hasPrefix("{")
                        ? "the memo's metadata comment is not valid JSON"
                        : "the memo's metadata comment cannot be read"), line: metadataLine)
        }
        switch members.first(where: { $0.0 == "content" })?.1 {
        case nil:
            members.append(("content", .string(text)))
        case .string(let content) where MarkdownFormat.visible(content) != text:
            // The text shown was edited by hand: neither it nor the comment's may be dropped silently.
            throw file.error(
                .invalid(
                    "the item's text was edited after the export, but its metadata comment still carries "
                        + "the text it was exported with; remove \"content\" from the comment to import the edit"),
                line: number)
        default:
            break
        }
        do {
            return try ImportRecord(json: .object(members), line: number)
        } catch {
            throw file.error(error, line: number)
        }
    }

    /// A paragraph: `first` and the lines after it up to a blank line, an item or a heading.
    private mutating func paragraph(startingWith first: String, at number: Int) throws(LocatedError) -> ImportRecord {
        var text = [first]
        while let (line, lineNumber) = try nextLine() {
            if line.allSatisfy(\.isWhitespace) { break }
            if line.hasPrefix("- ") || Self.isHeading(line) || MarkdownFence(opening: line) != nil {
                pending = (line, lineNumber)
                break
            }
            text.append(line)
        }
        return dated(ImportRecord(content: text.joined(separator: "\n"), line: number))
    }

    /// A fenced code block: `first`, the opening fence, and every line up to the closing
    /// fence or the end of the file.
    private mutating func fencedBlock(
        startingWith first: String, fence: MarkdownFence, at number: Int
    ) throws(LocatedError) -> ImportRecord {
        var text = [first]
        while let (line, _) = try nextLine() {
            text.append(line)
            if fence.isClosed(by: line) { break }
        }
        return dated(ImportRecord(content: text.joined(separator: "\n"), line: number))
    }

    /// A memo without metadata: dated at the start of the day of the heading above it.
    private func dated(_ record: ImportRecord) -> ImportRecord {
        var record = record
        if let day { record.insertDate = displayTime.startOfDay(day) }
        return record
    }

    private mutating func nextLine() throws(LocatedError) -> (String, Int)? {
        if let line = pending {
            pending = nil
            return line
        }
        guard let line = lines.next() else {
            if let failure = lines.failure { throw file.error(.invalid("cannot read: \(failure)"), line: lineNumber) }
            return nil
        }
        lineNumber += 1
        return (try file.text(of: line, at: lineNumber), lineNumber)
    }

    /// An ATX heading: one to six `#`, then a space or the end of the line.
    private static func isHeading(_ line: String) -> Bool {
        let marks = line.prefix { $0 == "#" }.count
        return (1...6).contains(marks) && (line.count == marks || line.dropFirst(marks).first == " ")
    }

    /// The day of a `## YYYY-MM-DD` heading, if it names one.
    private static func day(in heading: String) -> CivilDate? {
        guard heading.hasPrefix("## ") else { return nil }
        let words = heading.dropFirst(3).split(separator: " ")
        guard let first = words.first,
            case .day(let day)? = try? DateArgument.parse(Word(text: String(first), isLiteral: true))
        else { return nil }
        return day
    }
}
