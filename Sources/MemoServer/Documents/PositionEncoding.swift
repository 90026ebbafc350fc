import MemoNotebook

/// How LSP positions count characters within a line: UTF-16 code units unless the client
/// offers UTF-8 (`general.positionEncodings`), as LSP 3.17 requires.
enum PositionEncoding: String {
    case utf16 = "utf-16"
    case utf8 = "utf-8"

    /// The column of `index` in `line`.
    func column(of index: String.Index, in line: String) -> Int {
        switch self {
        case .utf16: line.utf16.distance(from: line.startIndex, to: index)
        case .utf8: line.utf8.distance(from: line.startIndex, to: index)
        }
    }

    /// The index at `column`, clamped to the line and moved back to a Unicode scalar boundary
    /// (the start of a scalar whose code units `column` falls inside). Not to a character
    /// boundary: editors send edits inside grapheme clusters (deleting a combining accent,
    /// one regional indicator of a flag), and those must land at their exact offset.
    func index(at column: Int, in line: some StringProtocol) -> String.Index {
        var counted = 0
        let scalars = line.unicodeScalars
        for index in scalars.indices {
            let width = self == .utf16 ? UTF16.width(scalars[index]) : UTF8.width(scalars[index])
            if counted + width > column { return index }
            counted += width
        }
        return line.endIndex
    }

    func position(line: Int, index: String.Index, in text: String) -> JSONValue {
        .object([("line", .integer(Int64(line))), ("character", .integer(Int64(column(of: index, in: text))))])
    }

    func range(line: Int, _ range: Range<String.Index>, in text: String) -> JSONValue {
        .object([
            ("start", position(line: line, index: range.lowerBound, in: text)),
            ("end", position(line: line, index: range.upperBound, in: text))
        ])
    }
}
