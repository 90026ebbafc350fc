/// The heredoc opener that ends a line: `<<WORD`, `<< WORD`, `<<'WORD'` or `<<"WORD"`.
///
/// It is found by looking at the line's characters, before the command is parsed, so that a
/// line ending in an opener always takes the lines up to its delimiter as text, whether or
/// not the command before it is valid: typed text must never run as commands.
package struct HeredocOpener: Equatable, Sendable {
    /// The word whose line closes the heredoc.
    package var delimiter: String
    /// Where the command before the opener ends in the line.
    package var commandEnd: String.Index

    /// The opener at the end of `line`, if there is one. It must stand as its own word
    /// (after white space or at the start), outside quotes, and the delimiter holds no quote.
    package init?(endOf line: String) {
        var end = line.endIndex
        while end > line.startIndex, line[line.index(before: end)].isBlank { end = line.index(before: end) }
        var cursor = end
        var quote: Character?
        if cursor > line.startIndex, let last = line[..<cursor].last, last == "'" || last == "\"" {
            quote = last
            cursor = line.index(before: cursor)
        }
        let wordEnd = cursor
        while cursor > line.startIndex, Self.isDelimiterCharacter(line[line.index(before: cursor)]) {
            cursor = line.index(before: cursor)
        }
        guard cursor < wordEnd else { return nil }
        let delimiter = String(line[cursor..<wordEnd])
        if let quote {
            guard cursor > line.startIndex, line[line.index(before: cursor)] == quote else { return nil }
            cursor = line.index(before: cursor)
        }
        while cursor > line.startIndex,
            line[line.index(before: cursor)] == " " || line[line.index(before: cursor)] == "\t"
        {
            cursor = line.index(before: cursor)
        }
        guard line[..<cursor].hasSuffix("<<") else { return nil }
        let openerStart = line.index(cursor, offsetBy: -2)
        guard openerStart == line.startIndex || line[line.index(before: openerStart)].isBlank else { return nil }
        self.delimiter = delimiter
        self.commandEnd = openerStart
    }

    /// Whether `line` closes a heredoc opened with this delimiter: the delimiter alone,
    /// trailing blanks allowed.
    package func isClosed(by line: String) -> Bool {
        var line = Substring(line)
        while line.last?.isWhitespace == true { line.removeLast() }
        return line == delimiter
    }

    private static func isDelimiterCharacter(_ character: Character) -> Bool {
        !character.isWhitespace && character != "'" && character != "\"" && character != "<"
    }
}
