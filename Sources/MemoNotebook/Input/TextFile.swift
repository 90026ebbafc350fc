import Glibc

/// How memo reads every text it is given as a file or a block of lines (scripts, piped
/// input, transcripts, fixtures, `memo/execute`): lines end at `\n`, a `\r` before it is
/// dropped, and a byte-order mark at the very start is not text.
package enum TextFile {
    /// The UTF-8 byte-order mark some editors put at the start of a file.
    static let byteOrderMark: Unicode.Scalar = "\u{FEFF}"
    /// Its bytes, for readers of bytes.
    static let byteOrderMarkBytes = Array(String(byteOrderMark).utf8)

    /// `text` without a byte-order mark at its very start.
    package static func withoutByteOrderMark(_ text: some StringProtocol) -> Substring {
        var scalars = Substring(text).unicodeScalars
        if scalars.first == byteOrderMark { scalars.removeFirst() }
        return Substring(scalars)
    }

    /// The lines of `text`; a final line break ends the last line rather than starting an
    /// empty one.
    package static func lines(of text: String) -> [String] {
        var lines = withoutByteOrderMark(text).unicodeScalars.split(separator: "\n", omittingEmptySubsequences: false)
            .map { line in
                String(line.last == "\r" ? line.dropLast() : line)
            }
        if lines.last == "" { lines.removeLast() }
        return lines
    }

    /// Opens `path` for reading, or says in plain words why it cannot be read.
    package static func open(_ path: String) throws(CommandError) -> Int32 {
        let descriptor = Glibc.open(path, O_RDONLY | O_CLOEXEC)
        guard descriptor >= 0 else { throw cannotRead(path, errno) }
        var status = stat()
        if fstat(descriptor, &status) == 0, status.st_mode & S_IFMT == S_IFDIR {
            close(descriptor)
            throw .invalid("cannot read \(path): it is a folder")
        }
        return descriptor
    }

    /// The whole of the file at `path` as UTF-8 text, or why it cannot be had.
    package static func read(_ path: String) throws(CommandError) -> String {
        let descriptor = try open(path)
        defer { close(descriptor) }
        return try read(descriptor: descriptor, name: path)
    }

    /// Everything left to read from `descriptor` as UTF-8 text; `name` says what it is in errors.
    package static func read(descriptor: Int32, name path: String) throws(CommandError) -> String {
        guard let text = String(validating: try bytes(descriptor: descriptor, name: path), as: UTF8.self) else {
            throw .invalid("cannot read \(path): it is not valid UTF-8 text")
        }
        return text
    }

    /// Everything left to read from `descriptor`; `name` says what it is in errors.
    package static func bytes(descriptor: Int32, name path: String) throws(CommandError) -> [UInt8] {
        var bytes: [UInt8] = []
        var chunk = [UInt8](repeating: 0, count: 1 << 16)
        while true {
            let count = chunk.withUnsafeMutableBytes { Glibc.read(descriptor, $0.baseAddress, $0.count) }
            if count < 0 {
                if errno == EINTR { continue }
                throw cannotRead(path, errno)
            }
            if count == 0 { break }
            bytes += chunk[0..<count]
        }
        return bytes
    }

    /// `cannot read PATH: REASON` with the system's reason for `code`.
    static func cannotRead(_ path: String, _ code: Int32) -> CommandError {
        .invalid("cannot read \(path): \(String(cString: strerror(code)))")
    }
}
