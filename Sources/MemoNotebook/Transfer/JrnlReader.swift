import Glibc
import MemoStore

/// jrnl's JSON export (`jrnl --format json`): an object with `tags` (counts) and `entries`,
/// each `{title, body, date: "YYYY-MM-DD", time: "HH:MM", tags: ["@x"], starred}`. An
/// entry becomes a memo: its title as the first line and its body below, dated on the
/// display time zone's wall clock (jrnl keeps local times), its tags without their `@` or
/// `#`, and `starred` as a tag. jrnl keeps neither ids nor edit times: an entry's uuid is
/// derived from its date, time and title, so importing the export again adds nothing, and
/// an entry whose body was edited in jrnl since leaves its memo as it was (a changed title
/// or date is a new entry). jrnl holds the whole journal in memory to write the export;
/// so is the export read here, up to `maximumBytes`.
struct JrnlReader: RecordReader {
    let file: ImportFile
    private let entries: [JSONValue]
    /// The line each entry starts on, for errors.
    private let lines: [Int]
    private let displayTime: DisplayTime
    private var index = 0

    /// Far beyond any journal jrnl itself can hold: a bigger file is refused, not read.
    static let maximumBytes = 1 << 30

    init(file: ImportFile, displayTime: DisplayTime) throws(LocatedError) {
        self.file = file
        self.displayTime = displayTime
        var status = stat()
        if fstat(file.descriptor, &status) == 0, status.st_size > Self.maximumBytes {
            throw file.error(.invalid("a jrnl export larger than \(Self.maximumBytes >> 20) MiB is not read"), line: 1)
        }
        let bytes: [UInt8]
        do {
            bytes = Array(try TextFile.read(descriptor: file.descriptor, name: file.name).utf8)
        } catch {
            throw file.error(error, line: 1)
        }
        guard case .array(let entries)? = (try? JSONValue.parse(bytes))?[member: "entries"] else {
            throw file.error(.invalid("not a jrnl export: no \"entries\" array in a JSON object"), line: 1)
        }
        self.entries = entries
        lines = Self.entryLines(bytes)
    }

    var progress: Double? { entries.isEmpty ? nil : Double(index) / Double(entries.count) }

    mutating func next() throws(LocatedError) -> ImportRecord? {
        guard index < entries.count else { return nil }
        let entry = entries[index]
        let line = index < lines.count ? lines[index] : 1
        index += 1
        do {
            return try record(entry, line: line)
        } catch {
            throw file.error(error, line: line)
        }
    }

    private func record(_ entry: JSONValue, line: Int) throws(CommandError) -> ImportRecord {
        guard case .string(let title)? = entry[member: "title"] else {
            throw .invalid("a jrnl entry needs a \"title\" string")
        }
        guard case .string(let date)? = entry[member: "date"],
            case .day(let day)? = try? DateArgument.parse(Word(text: date, isLiteral: true))
        else { throw .invalid("a jrnl entry needs a \"date\" of the form YYYY-MM-DD") }
        var time = ""
        var milliseconds: Int64 = 0
        if case .string(let text)? = entry[member: "time"] {
            guard let value = SourceDate.millisecondsIntoDay(Substring(text)) else {
                throw .invalid("invalid jrnl \"time\" '\(text)': use HH:MM")
            }
            (time, milliseconds) = (text, value)
        }
        var body = ""
        if case .string(let text)? = entry[member: "body"] { body = text }
        body = String(body.reversed().drop(while: \.isWhitespace).reversed())
        var tags: [String] = []
        if case .array(let values)? = entry[member: "tags"] {
            for case .string(let tag) in values {
                let name = tag.first == "@" || tag.first == "#" ? String(tag.dropFirst()) : tag
                if !name.isEmpty { tags.append(name) }
            }
        }
        if case .bool(true)? = entry[member: "starred"] { tags.append("starred") }
        var record = ImportRecord(
            content: body.isEmpty ? title : title + "\n" + body,
            uuid: StableUUID.make(from: "jrnl:\(date) \(time)\n\(title)"),
            insertDate: SourceDate.wallClock(day, milliseconds, in: displayTime), tags: tags, line: line)
        record.namesItsSource = true
        return record
    }

    /// The line each member of the top object's array (jrnl's `entries`) starts on.
    private static func entryLines(_ bytes: [UInt8]) -> [Int] {
        var lines: [Int] = [], line = 1, containers: [UInt8] = []
        var inString = false, escaped = false
        for byte in bytes {
            if byte == UInt8(ascii: "\n") { line += 1 }
            if inString {
                if escaped {
                    escaped = false
                } else if byte == UInt8(ascii: "\\") {
                    escaped = true
                } else if byte == UInt8(ascii: "\"") {
                    inString = false
                }
                continue
            }
            switch byte {
            case UInt8(ascii: "\""): inString = true
            case UInt8(ascii: "{"), UInt8(ascii: "["):
                if byte == UInt8(ascii: "{"), containers == [UInt8(ascii: "{"), UInt8(ascii: "[")] {
                    lines.append(line)
                }
                containers.append(byte)
            case UInt8(ascii: "}"), UInt8(ascii: "]"): _ = containers.popLast()
            default: break
            }
        }
        return lines
    }
}
