/// The rules every memo's text obeys, whichever face it came through.
package enum MemoContent {
    /// The largest content accepted, in UTF-8 bytes (1 MiB).
    package static let maximumBytes = 1 << 20

    /// The text up to its first line break.
    package static func firstLine(of content: String) -> String {
        String(lines(of: content).first ?? "")
    }

    /// The first line that is not blank: what names a memo in a menu, a hint or a symbol,
    /// which an empty label would leave blank (and LSP forbids one).
    package static func title(of content: some StringProtocol) -> String {
        String(lines(of: Substring(content)).first { !$0.isEmpty && !$0.allSatisfy(\.isWhitespace) } ?? "")
    }

    /// The lines of a text: each ends at a line feed, and a carriage return before the line
    /// feed ends it with it (CR LF, as Windows writes lines), so no line shows the CR. Found
    /// by bytes: `\r\n` is one `Character`, which a split at `"\n"` does not see.
    package static func lines<Text: StringProtocol>(of text: Text) -> [Text.SubSequence] {
        var lines: [Text.SubSequence] = []
        let utf8 = text.utf8
        var start = utf8.startIndex, index = start, previous: UInt8 = 0
        var lineEnd = start
        while index < utf8.endIndex {
            let byte = utf8[index]
            if byte == 0x0D { lineEnd = index }
            if byte == 0x0A {
                lines.append(text[start..<(previous == 0x0D ? lineEnd : index)])
                start = utf8.index(after: index)
            }
            previous = byte
            index = utf8.index(after: index)
        }
        lines.append(text[start..<utf8.endIndex])
        return lines
    }

    /// Checks `content` for the store: not empty (after trimming white space) and at most 1 MiB.
    /// Validity of UTF-8 is checked where bytes become a `String`.
    package static func validate(_ content: String) throws(StoreError) {
        if content.allSatisfy(\.isWhitespace) {
            throw .invalidContent("memo text is empty")
        }
        let size = content.utf8.count
        if size > maximumBytes {
            throw .invalidContent("memo text is \(size) bytes; the limit is \(maximumBytes) (1 MiB)")
        }
    }
}
