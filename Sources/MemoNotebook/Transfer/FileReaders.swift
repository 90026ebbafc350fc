import FoundationEssentials
import Glibc
import MemoStore

/// Where a reader's bytes come from: an open file, its name for errors, and how far
/// through it reading is.
struct ImportFile {
    let name: String
    let descriptor: Int32
    private let size: Int64

    init(name: String, descriptor: Int32) {
        self.name = name
        self.descriptor = descriptor
        var status = stat()
        size = fstat(descriptor, &status) == 0 && status.st_mode & S_IFMT == S_IFREG ? Int64(status.st_size) : 0
    }

    /// The share of the file read so far, or nil for a pipe.
    var progress: Double? {
        guard size > 0 else { return nil }
        return min(1, Double(lseek(descriptor, 0, SEEK_CUR)) / Double(size))
    }

    /// The longest record an import reads: an export's record of the longest memo (1 MiB of
    /// text, up to six bytes a character in JSON) with the links of its references (some 60
    /// bytes each), as a sync's longest message.
    static let maximumRecordBytes = 64 << 20

    func error(_ message: CommandError, line: Int) -> LocatedError {
        LocatedError(file: name, line: line, underlying: message)
    }

    /// The text of a line `LineReader` read, or the error of a line it could not.
    func text(of line: LineReader.Line, at number: Int) throws(LocatedError) -> String {
        do {
            return try line.text()
        } catch {
            throw self.error(error, line: number)
        }
    }
}

/// JSON Lines: one memo object per line; blank lines are allowed.
struct JSONLinesReader: RecordReader {
    let file: ImportFile
    private let lines: LineReader
    private var lineNumber = 0

    init(file: ImportFile) {
        self.file = file
        lines = LineReader(descriptor: file.descriptor, maximumBytes: ImportFile.maximumRecordBytes)
    }

    var progress: Double? { file.progress }

    mutating func next() throws(LocatedError) -> ImportRecord? {
        while let line = lines.next() {
            lineNumber += 1
            let text = try file.text(of: line, at: lineNumber)
            // A record's line starts with its `{`: only another line is looked at a character at a time.
            guard text.utf8.first == UInt8(ascii: "{") || !text.allSatisfy(\.isWhitespace) else { continue }
            guard let object = FlatRecordParser.parse(text) ?? (try? JSONValue.parse(text.utf8)) else {
                throw file.error(.invalid("the line is not valid JSON"), line: lineNumber)
            }
            do {
                return try ImportRecord(json: object, line: lineNumber)
            } catch {
                throw file.error(error, line: lineNumber)
            }
        }
        if let failure = lines.failure { throw file.error(.invalid("cannot read: \(failure)"), line: lineNumber) }
        return nil
    }
}

/// A JSON array of memo objects, read element by element: the array is never held whole.
/// Or the array under one member of a JSON object (jrnl's `{"tags": …, "entries": [...]}`),
/// the object's other members skipped.
struct JSONArrayReader: RecordReader {
    let file: ImportFile
    /// An element larger than this is refused rather than buffered.
    static let maximumElementBytes = ImportFile.maximumRecordBytes
    /// The member of the top object that holds the array, or nil when the file is the array
    /// (or once the object is read to its end).
    private var member: String?
    /// The record of an element (a JSON object) starting at a line.
    private let record: (JSONValue, Int) throws(CommandError) -> ImportRecord
    private var buffer: [UInt8] = []
    private var start = 0
    private var line = 1
    private var isAtEnd = false
    private var state = State.beforeArray

    private enum State {
        case beforeArray, beforeElement, afterElement, done
    }

    init(file: ImportFile) {
        self.init(file: file, member: nil) { object, line throws(CommandError) in
            try ImportRecord(json: object, line: line)
        }
    }

    init(
        file: ImportFile, member: String?,
        record: @escaping (JSONValue, Int) throws(CommandError) -> ImportRecord
    ) {
        self.file = file
        self.member = member
        self.record = record
    }

    var progress: Double? { file.progress }

    mutating func next() throws(LocatedError) -> ImportRecord? {
        let mark = TextFile.byteOrderMarkBytes
        if state == .beforeArray, line == 1, start == 0, try peek() != nil, buffer.starts(with: mark) {
            // A byte-order mark, as editors on Windows write one, is no part of the JSON.
            start = mark.count
        }
        while true {
            skipWhiteSpace()
            guard let byte = try peek() else {
                if state == .done, member == nil { return nil }
                if state == .done { throw file.error(.invalid("the JSON object is not closed with '}'"), line: line) }
                throw file.error(
                    .invalid(
                        state == .beforeArray ? "the file holds no JSON array" : "the array is not closed with ']'"),
                    line: line)
            }
            switch state {
            case .beforeArray:
                if let member, byte == UInt8(ascii: "{") { try skipToMember(member) }
                guard try peek() == UInt8(ascii: "[") else {
                    throw file.error(.invalid("a JSON array of memo objects must start with '['"), line: line)
                }
                start += 1
                state = .beforeElement
            case .beforeElement, .afterElement:
                if byte == UInt8(ascii: "]") {
                    start += 1
                    state = .done
                    continue
                }
                if state == .afterElement {
                    guard byte == UInt8(ascii: ",") else {
                        throw file.error(.invalid("expected ',' or ']' after a record"), line: line)
                    }
                    start += 1
                    state = .beforeElement
                    continue
                }
                let elementLine = line
                let element = try nextObject()
                state = .afterElement
                let flat = element.withUnsafeBufferPointer(FlatRecordParser.parse)
                guard let object = flat ?? (try? JSONValue.parse(element)) else {
                    throw file.error(.invalid("the record is not valid JSON"), line: elementLine)
                }
                do {
                    return try record(object, elementLine)
                } catch {
                    throw file.error(error, line: elementLine)
                }
            case .done:
                if member != nil, try skipToObjectEnd() { continue }
                throw file.error(.invalid("unexpected text after the array"), line: line)
            }
        }
    }

    /// Reads the top object's members up to `member`'s value (its other values skipped), or
    /// says that the object has no such member.
    private mutating func skipToMember(_ member: String) throws(LocatedError) {
        start += 1
        while true {
            skipWhiteSpace()
            guard try peek() == UInt8(ascii: "\"") else { break }
            let key = try nextValue()
            skipWhiteSpace()
            guard try peek() == UInt8(ascii: ":") else { break }
            start += 1
            skipWhiteSpace()
            if key == Array("\"\(member)\"".utf8) { return }
            _ = try nextValue()
            skipWhiteSpace()
            guard try peek() == UInt8(ascii: ",") else { break }
            start += 1
        }
        throw file.error(.invalid("the JSON object has no \"\(member)\" array"), line: line)
    }

    /// After the array: skips the top object's further members and its `}`, true when it
    /// did (the text after it is then read as after any array).
    private mutating func skipToObjectEnd() throws(LocatedError) -> Bool {
        while try peek() == UInt8(ascii: ",") {
            start += 1
            skipWhiteSpace()
            _ = try nextValue()
            skipWhiteSpace()
            guard try peek() == UInt8(ascii: ":") else { return false }
            start += 1
            skipWhiteSpace()
            _ = try nextValue()
            skipWhiteSpace()
        }
        guard try peek() == UInt8(ascii: "}") else { return false }
        start += 1
        member = nil
        return true
    }

    /// The bytes of one JSON value: an object or array by following strings and nesting, a
    /// string to its closing quote, a number or literal to the next delimiter.
    private mutating func nextValue() throws(LocatedError) -> [UInt8] {
        guard let first = try peek() else { throw file.error(.invalid("the file ends inside a value"), line: line) }
        if first == UInt8(ascii: "{") || first == UInt8(ascii: "[") { return try nextObject(isSkipped: true) }
        var offset = first == UInt8(ascii: "\"") ? 1 : 0, escaped = false
        while true {
            if start + offset == buffer.count {
                guard try fill() else { break }
                continue
            }
            let byte = buffer[start + offset]
            if first == UInt8(ascii: "\"") {
                offset += 1
                if escaped {
                    escaped = false
                } else if byte == UInt8(ascii: "\\") {
                    escaped = true
                } else if byte == UInt8(ascii: "\"") {
                    break
                }
            } else if [0x20, 0x09, 0x0A, 0x0D, UInt8(ascii: ","), UInt8(ascii: "}"), UInt8(ascii: "]")].contains(byte) {
                break
            } else {
                offset += 1
            }
            if offset > Self.maximumElementBytes {
                throw file.error(.invalid("a value is larger than \(Self.maximumElementBytes) bytes"), line: line)
            }
        }
        let value = Array(buffer[start..<(start + offset)])
        start += offset
        return value
    }

    /// The bytes of one JSON object (or of an array, for a value `isSkipped`), found by
    /// following strings and nesting.
    private mutating func nextObject(isSkipped: Bool = false) throws(LocatedError) -> [UInt8] {
        guard buffer[start] == UInt8(ascii: "{") || (isSkipped && buffer[start] == UInt8(ascii: "[")) else {
            throw file.error(.invalid("a record must be a JSON object"), line: line)
        }
        var offset = 0, depth = 0, inString = false, escaped = false
        while true {
            if start + offset == buffer.count {
                guard try fill() else { throw file.error(.invalid("the file ends inside a record"), line: line) }
                continue
            }
            if offset > Self.maximumElementBytes {
                throw file.error(.invalid("a record is larger than \(Self.maximumElementBytes) bytes"), line: line)
            }
            let byte = buffer[start + offset]
            offset += 1
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
            case UInt8(ascii: "{"), UInt8(ascii: "["): depth += 1
            case UInt8(ascii: "}"), UInt8(ascii: "]"):
                depth -= 1
                if depth == 0 {
                    let object = Array(buffer[start..<(start + offset)])
                    start += offset
                    return object
                }
            default: break
            }
        }
    }

    private mutating func skipWhiteSpace() {
        while true {
            while start < buffer.count, [0x20, 0x09, 0x0A, 0x0D].contains(buffer[start]) {
                if buffer[start] == 0x0A { line += 1 }
                start += 1
            }
            if start < buffer.count || !((try? fill()) ?? false) { return }
        }
    }

    private mutating func peek() throws(LocatedError) -> UInt8? {
        if start == buffer.count, try !fill() { return nil }
        return start < buffer.count ? buffer[start] : nil
    }

    /// Reads more bytes, dropping those already consumed; false at the end.
    private mutating func fill() throws(LocatedError) -> Bool {
        guard !isAtEnd else { return false }
        if start > 1 << 16 {
            buffer.removeFirst(start)
            start = 0
        }
        var chunk = [UInt8](repeating: 0, count: 1 << 16)
        while true {
            let count = chunk.withUnsafeMutableBytes { read(file.descriptor, $0.baseAddress, $0.count) }
            if count < 0 && errno == EINTR { continue }
            if count < 0 { throw file.error(.invalid("cannot read: \(String(cString: strerror(errno)))"), line: line) }
            if count == 0 {
                isAtEnd = true
                return false
            }
            buffer += chunk[0..<count]
            return true
        }
    }
}
