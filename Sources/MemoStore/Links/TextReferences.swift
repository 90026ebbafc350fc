/// A reference a memo's text makes to another memo, and where it stands in the text.
package struct TextReference: Equatable, Sendable {
    package let reference: MemoReference
    /// Its first byte, counted in the text's UTF-8 bytes.
    package let start: Int
    /// Its length in UTF-8 bytes.
    package let length: Int
}

/// The references a memo's text makes (docs/REFERENCE.md, Links), read as the language server reads
/// the memo's own file (`ID.md`): Markdown, so none in code spans or fenced code blocks, lines
/// ending at `\n`, `\r\n` or `\r`. The link index and an editor showing the file so find the
/// same links.
package enum TextReferences {
    package static let syntax = ReferenceSyntax(isMarkdown: true)

    /// A reference as `content` writes it (`#2`, `memo:8e75e0e6`), from its link's place in
    /// the text's UTF-8 bytes; empty for a place outside the text (a store another program
    /// wrote). Sliced from a text read once: SQL slicing the text again for each of a memo's
    /// links would read it whole each time.
    static func written(start: Int64, length: Int64, in content: String) -> String {
        let utf8 = content.utf8
        let count = Int64(utf8.count)
        guard start >= 0, length >= 0, start <= count, length <= count - start else { return "" }
        let from = utf8.index(utf8.startIndex, offsetBy: Int(start))
        return String(decoding: utf8[from..<utf8.index(from, offsetBy: Int(length))], as: UTF8.self)
    }

    package static func all(in text: String) -> [TextReference] {
        // Most texts hold neither a `#` nor the `:` of `memo:`.
        guard
            UTF8Bytes.firstIndex(
                in: text, from: text.startIndex, where: { $0 == UInt8(ascii: "#") || $0 == UInt8(ascii: ":") }) != nil
        else { return [] }
        var found: [TextReference] = []
        var openFence: MarkdownFence?
        var lineStart = text.startIndex
        var lineOffset = 0
        while true {
            let breakIndex =
                text.utf8[lineStart...].firstIndex { $0 == UInt8(ascii: "\n") || $0 == UInt8(ascii: "\r") }
                ?? text.endIndex
            let line = String(text[lineStart..<breakIndex])
            let unnested = MarkdownFence.unnested(line)
            if let fence = openFence {
                if fence.isClosed(by: unnested) { openFence = nil }
            } else if let fence = MarkdownFence(opening: unnested) {
                openFence = fence
            } else {
                for reference in MemoReference.all(in: line, syntax: syntax) {
                    let start = lineOffset + line.utf8.distance(from: line.startIndex, to: reference.range.lowerBound)
                    found.append(
                        TextReference(
                            reference: reference.reference, start: start,
                            length: line.utf8.distance(from: reference.range.lowerBound, to: reference.range.upperBound)
                        ))
                }
            }
            guard breakIndex < text.endIndex else { break }
            var next = text.utf8.index(after: breakIndex)
            if text.utf8[breakIndex] == UInt8(ascii: "\r"), next < text.endIndex, text.utf8[next] == UInt8(ascii: "\n")
            {
                next = text.utf8.index(after: next)
            }
            lineOffset += text.utf8.distance(from: lineStart, to: next)
            lineStart = next
        }
        return found
    }
}
