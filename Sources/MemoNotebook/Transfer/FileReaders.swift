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
        lines = LineReader(descriptor: file.descriptor)
    }

    var progress: Double? { file.progress }

    mutating func next() throws(LocatedError) -> ImportRecord? {
        while let line = lines.next() {
            lineNumber += 1
            let text = try file.text(of: line, at: lineNumber)
            guard !text.allSatisfy(\.isWhitespace) else { continue }
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
struct JSONArrayReader: RecordReader {
    let file: ImportFile
    /// An element larger than this is refused rather than buffered: a memo is at most 1 MiB.
    static let maximumElementBytes = 16 << 20
    private var buffer: [UInt8] = []
    private var start = 0
    private var line = 1
    private var isAtEnd = false
    private var state = State.beforeArray

    private enum State {
        case beforeArray, beforeElement, afterElement, done
    }

    init(file: ImportFile) {
        self.file = file
    }

    var progress: Double? { file.progress }

    mutating func next() throws(LocatedError) -> ImportRecord? {
        while true {
            skipWhiteSpace()
            guard let byte = try peek() else {
                if state == .done { return nil }
                throw file.error(
                    .invalid(
                        state == .beforeArray ? "the file holds no JSON array" : "the array is not closed with ']'"),
                    line: line)
            }
            switch state {
            case .beforeArray:
                guard byte == UInt8(ascii: "[") else {
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
                    return try ImportRecord(json: object, line: elementLine)
                } catch {
                    throw file.error(error, line: elementLine)
                }
            case .done:
                throw file.error(.invalid("unexpected text after the array"), line: line)
            }
        }
    }

    /// The bytes of one JSON object, found by following strings and nesting.
    private mutating func nextObject() throws(LocatedError) -> [UInt8] {
        guard buffer[start] == UInt8(ascii: "{") else {
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
