import Glibc

/// What an import reads, told by what is at the path rather than by its name alone: a
/// folder is a folder of Markdown notes; a file's first bytes tell a SQLite store (Core
/// Data; memo's own store is refused: `sync` merges stores), a JSON array (memo's JSON), jrnl's export (an object whose first member is
/// `"entries"`, or `"tags"` holding an object: memo's records hold tags in an array), one
/// JSON object a line (JSON Lines), and Markdown that opens with front matter (a note).
/// Other text goes by the file's name, else is read as Markdown. `--format` overrides all
/// but a folder's and a note's reading. Standard input cannot be looked at twice: it goes
/// by `--format`, else is JSON Lines.
enum ImportInput: Equatable {
    case records(TransferFormat)
    /// A folder of notes, or one note (`isFolder` false).
    case notes(isFolder: Bool)
    /// Another memo store (its SQLite header names memo's application): `sync` merges it,
    /// whatever `--format` says.
    case memoStore

    /// How much of a file is looked at.
    private static let sniffedBytes = 4096

    init(path: String, shownAs name: String, format: TransferFormat?) throws(CommandError) {
        guard path != "-" else {
            self = .records(format ?? .jsonl)
            return
        }
        var status = stat()
        if stat(path, &status) == 0, status.st_mode & S_IFMT == S_IFDIR {
            if let format, format != .markdown {
                throw .invalid(
                    "cannot import \(name) as \(format.rawValue): it is a folder (of Markdown notes: --format markdown)"
                )
            }
            self = .notes(isFolder: true)
            return
        }
        let start = Self.firstBytes(of: path)
        if Self.isMemoStore(start) {
            self = .memoStore
            return
        }
        let detected = Self.format(of: start)
        if (format ?? detected ?? TransferFormat(fileName: name)) == .markdown, Self.opensWithFrontMatter(start) {
            self = .notes(isFolder: false)
            return
        }
        self = .records(format ?? detected ?? TransferFormat(fileName: name) ?? .markdown)
    }

    /// The format the first bytes of a file show, or nil when they do not tell.
    static func format(of bytes: [UInt8]) -> TransferFormat? {
        if bytes.starts(with: Array("SQLite format 3\0".utf8)) { return .coredata }
        var scanner = JSONStartScanner(bytes: bytes)
        switch scanner.next() {
        case UInt8(ascii: "["): return .json
        case UInt8(ascii: "{"):
            switch scanner.key() {
            case "entries": return .jrnl
            case "tags":
                return scanner.next() == UInt8(ascii: ":") && scanner.next() == UInt8(ascii: "{") ? .jrnl : .jsonl
            default: return .jsonl
            }
        case UInt8(ascii: "-"): return opensWithFrontMatter(bytes) ? .markdown : nil
        default: return nil
        }
    }

    /// Whether the bytes open an SQLite database whose application id (offset 68, big
    /// endian) is memo's, `MEMO`.
    static func isMemoStore(_ bytes: [UInt8]) -> Bool {
        bytes.starts(with: Array("SQLite format 3\0".utf8)) && bytes.count >= 72
            && Array(bytes[68..<72]) == Array("MEMO".utf8)
    }

    /// Whether the text opens with a `---` line (a YAML front matter block).
    static func opensWithFrontMatter(_ bytes: [UInt8]) -> Bool {
        let mark = TextFile.byteOrderMarkBytes
        let text = bytes.starts(with: mark) ? Array(bytes.dropFirst(mark.count)) : bytes
        guard text.starts(with: Array("---".utf8)) else { return false }
        let rest = text.dropFirst(3).prefix { $0 != UInt8(ascii: "\n") }
        return rest.allSatisfy { $0 == UInt8(ascii: " ") || $0 == UInt8(ascii: "\t") || $0 == UInt8(ascii: "\r") }
            && text.count > 3
    }

    private static func firstBytes(of path: String) -> [UInt8] {
        let descriptor = open(path, O_RDONLY | O_CLOEXEC | O_NONBLOCK)
        guard descriptor >= 0 else { return [] }
        defer { close(descriptor) }
        var status = stat()
        guard fstat(descriptor, &status) == 0, status.st_mode & S_IFMT == S_IFREG else { return [] }
        var bytes = [UInt8](repeating: 0, count: sniffedBytes)
        let count = bytes.withUnsafeMutableBytes { pread(descriptor, $0.baseAddress, $0.count, 0) }
        return Array(bytes.prefix(max(0, count)))
    }
}

/// The first tokens of a JSON text: enough to tell which JSON an import file holds.
private struct JSONStartScanner {
    let bytes: [UInt8]
    var index = 0

    /// The next byte that is not white space (a byte-order mark skipped at the start).
    mutating func next() -> UInt8? {
        if index == 0, bytes.starts(with: TextFile.byteOrderMarkBytes) { index = TextFile.byteOrderMarkBytes.count }
        while index < bytes.count, [0x20, 0x09, 0x0A, 0x0D].contains(bytes[index]) { index += 1 }
        guard index < bytes.count else { return nil }
        defer { index += 1 }
        return bytes[index]
    }

    /// The next string, when it is a plain one (no escapes), as an object's key.
    mutating func key() -> String? {
        guard next() == UInt8(ascii: "\"") else { return nil }
        let end = bytes[index...].firstIndex { $0 == UInt8(ascii: "\"") || $0 == UInt8(ascii: "\\") }
        guard let end, bytes[end] == UInt8(ascii: "\"") else { return nil }
        defer { index = end + 1 }
        return String(decoding: bytes[index..<end], as: UTF8.self)
    }
}
