import FoundationEssentials
import MemoStore

/// Markdown as `export --format markdown` writes it, and as people write lists: `## DAY`
/// headings, and items that start with `- ` with further lines indented by two spaces. Each
/// item is a memo; its metadata comment, when there, restores its uuid, dates and tags. An
/// item without one is dated at the start of its heading's day (in the display time zone),
/// or gets the session's time when no heading came before it. Other lines are not memos.
struct MarkdownReader: RecordReader {
    let file: ImportFile
    let displayTime: DisplayTime
    private let lines: LineReader
    private var lineNumber = 0
    private var day: CivilDate?
    /// A line read ahead that belongs to the next item.
    private var pending: (text: String, number: Int)?

    init(file: ImportFile, displayTime: DisplayTime) {
        self.file = file
        self.displayTime = displayTime
        lines = LineReader(descriptor: file.descriptor)
    }

    var progress: Double? { file.progress }

    mutating func next() throws(LocatedError) -> ImportRecord? {
        while let (line, number) = try nextLine() {
            if line.hasPrefix("## ") {
                day = Self.day(in: line)
            } else if line.hasPrefix("- ") {
                return try item(startingWith: String(line.dropFirst(2)), at: number)
            }
        }
        return nil
    }

    /// The item whose first line is `first`: its continuation lines, blank lines inside it,
    /// and its metadata comment.
    private mutating func item(startingWith first: String, at number: Int) throws(LocatedError) -> ImportRecord {
        var text = [first]
        var blanks = 0
        var metadata: JSONValue?
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
                let json = content.dropFirst(MarkdownFormat.metadataPrefix.count).dropLast(MarkdownFormat.metadataSuffix.count)
                guard let object = try? JSONValue.parse(json.utf8) else {
                    throw file.error(.invalid("the memo's metadata comment is not valid JSON"), line: lineNumber)
                }
                metadata = object
                continue
            }
            text += Array(repeating: "", count: blanks) + [content]
            blanks = 0
        }
        var record = ImportRecord(content: text.joined(separator: "\n"), line: number)
        if case .object(var members)? = metadata {
            members.append(("content", .string(record.content)))
            do {
                record = try ImportRecord(json: .object(members), line: number)
            } catch {
                throw file.error(error, line: number)
            }
        } else if let day {
            record.insertDate = displayTime.startOfDay(day)
        }
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

    /// The day of a `## YYYY-MM-DD` heading, if it names one.
    private static func day(in heading: String) -> CivilDate? {
        let words = heading.dropFirst(3).split(separator: " ")
        guard let first = words.first, case .day(let day)? = try? DateArgument.parse(Word(text: String(first), isLiteral: true))
        else { return nil }
        return day
    }
}
