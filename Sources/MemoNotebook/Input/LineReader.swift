import Glibc

/// Reads lines from a file descriptor as they arrive, checking each is valid UTF-8 and not
/// absurdly long. A bad line is reported and skipped; the lines after it still arrive.
/// Lines are split as `TextFile` splits them: `\r\n` too, and a byte-order mark at the
/// start of the stream is dropped.
package final class LineReader {
    /// Longer lines are refused without being kept in memory: a memo is at most 1 MiB.
    package static let maximumLineBytes = 4 << 20
    /// This reader's longest line (`maximumLineBytes` unless it reads longer records).
    private let maximumBytes: Int

    package enum Line: Equatable {
        case text(String)
        case invalidUTF8
        /// Longer than the reader's maximum, in bytes.
        case tooLong(maximumBytes: Int)

        /// The line's text, or why it has none.
        package func text() throws(CommandError) -> String {
            switch self {
            case .text(let text): text
            case .invalidUTF8: throw .invalid("the line is not valid UTF-8")
            case .tooLong(let maximumBytes): throw .invalid("the line is longer than \(maximumBytes) bytes")
            }
        }
    }

    private let descriptor: Int32
    private var buffer: [UInt8] = []
    private var start = 0
    /// Where the search for the next line break resumes: every byte is looked at once, so a
    /// long line arriving in many reads costs its length, not its length squared.
    private var searched = 0
    private var isAtEnd = false
    private var isDiscarding = false
    private var isAtStart = true

    /// Why reading stopped early (the system's reason), or nil if it reached the end.
    package private(set) var failure: String?

    package init(descriptor: Int32, maximumBytes: Int = LineReader.maximumLineBytes) {
        self.descriptor = descriptor
        self.maximumBytes = maximumBytes
    }

    /// The next line without its line break (and without a `\r` before it), or nil at the end.
    package func next() -> Line? {
        while true {
            if let newline = buffer[searched...].firstIndex(of: UInt8(ascii: "\n")) {
                let line = take(upTo: newline, skipping: 1)
                if isDiscarding {
                    isDiscarding = false
                    return .tooLong(maximumBytes: maximumBytes)
                }
                return line
            }
            if isAtEnd {
                guard start < buffer.count || isDiscarding else { return nil }
                let line = take(upTo: buffer.count, skipping: 0)
                if isDiscarding {
                    isDiscarding = false
                    return .tooLong(maximumBytes: maximumBytes)
                }
                return line
            }
            searched = buffer.count
            if buffer.count - start > maximumBytes {
                isDiscarding = true
                buffer.removeAll(keepingCapacity: true)
                start = 0
                searched = 0
            }
            fill()
        }
    }

    private func take(upTo end: Int, skipping separator: Int) -> Line {
        var bytes = buffer[start..<end]
        start = end + separator
        if start > 1 << 16 {
            buffer.removeFirst(start)
            start = 0
        }
        searched = start
        if bytes.last == UInt8(ascii: "\r") { bytes = bytes.dropLast() }
        if isAtStart {
            isAtStart = false
            let mark = TextFile.byteOrderMarkBytes
            if bytes.starts(with: mark) { bytes = bytes.dropFirst(mark.count) }
        }
        guard let text = String(validating: bytes, as: UTF8.self) else { return .invalidUTF8 }
        return .text(text)
    }

    private func fill() {
        var chunk = [UInt8](repeating: 0, count: 1 << 16)
        while true {
            let count = chunk.withUnsafeMutableBytes { read(descriptor, $0.baseAddress, $0.count) }
            if count < 0 && errno == EINTR { continue }
            if count < 0 { failure = String(cString: strerror(errno)) }
            if count <= 0 {
                isAtEnd = true
            } else {
                buffer.append(contentsOf: chunk[0..<count])
            }
            return
        }
    }
}
