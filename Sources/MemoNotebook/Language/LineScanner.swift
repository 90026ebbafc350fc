/// Splits one line of the command language into words.
///
/// Words are separated by white space; single quotes keep everything literally; double
/// quotes understand `\n`, `\t`, `\"` and `\\`. Quoted parts join the word they touch,
/// as in a shell: `a"b c"` is the one word `ab c`.
///
/// It reads the line's characters (`Character`) from a copy of its UTF-8 bytes: an ASCII byte
/// with an ASCII byte (or the line's end) after it is a character of its own (CR before LF
/// aside), taken without the grapheme rules, and a word's text is copied in runs, not a
/// character at a time. A script of commands is mostly such bytes: reading its lines a
/// `Character` at a time was a third of replaying a script of adds.
package struct LineScanner: WordSource {
    package let line: String
    /// The line's UTF-8 bytes; where scanning stands and where it stops in them (the line's
    /// end, or the start of a heredoc opener).
    private let bytes: [UInt8]
    private var position: Int
    private let end: Int

    package init(_ line: String, end: String.Index? = nil) {
        self.line = line
        bytes = Array(line.utf8)
        position = 0
        self.end = end.map { line.utf8.distance(from: line.startIndex, to: $0) } ?? bytes.count
    }

    private init(_ scanner: LineScanner, from position: Int, to end: Int) {
        line = scanner.line
        bytes = scanner.bytes
        self.position = position
        self.end = end
    }

    package mutating func nextWord() throws(CommandError) -> Word? {
        skipWhiteSpace()
        guard position < end else { return nil }
        let start = position
        var text = ""
        var isQuoted = false
        var run = position
        while position < end, !isBlank(at: position) {
            let character = ascii(at: position)
            if character == UInt8(ascii: "'") || character == UInt8(ascii: "\""), let quote = character {
                text += self.text(run..<position)
                isQuoted = true
                text += try quoted(by: quote)
                run = position
            } else {
                position = offset(after: position)
            }
        }
        text += self.text(run..<position)
        return Word(text: text, range: range(start..<position), isLiteral: isQuoted)
    }

    package mutating func remainingText(raw: Bool) -> Word? {
        skipWhiteSpace()
        guard position < end else { return nil }
        var trial = self
        if !raw, let word = try? trial.nextWord(), word.isLiteral, trial.isAtEnd {
            self = trial
            return word
        }
        var textEnd = end
        while textEnd > position {
            let before = offset(before: textEnd)
            guard isBlank(at: before) else { break }
            textEnd = before
        }
        let word = Word(text: text(position..<textEnd), range: range(position..<textEnd), isLiteral: false)
        position = end
        return word
    }

    /// A word as typed, its double quotes kept (a search's phrases); a word that starts with a
    /// single quote closed later on the line is what the quotes hold, as a shell passes it
    /// (`'Tom & Jerry'` is `Tom & Jerry`), while an apostrophe within a word stays (`don't`).
    package mutating func nextRawWord() -> Word? {
        skipWhiteSpace()
        guard position < end else { return nil }
        let start = position
        if ascii(at: start) == UInt8(ascii: "'"), let closing = first(UInt8(ascii: "'"), from: offset(after: start)) {
            position = offset(after: closing)
            return Word(text: text(offset(after: start)..<closing), range: range(start..<position), isLiteral: true)
        }
        var isInPhrase = false
        while position < end, isInPhrase || !isBlank(at: position) {
            if ascii(at: position) == UInt8(ascii: "\"") { isInPhrase.toggle() }
            position = offset(after: position)
        }
        return Word(
            text: text(start..<position), range: range(start..<position),
            isLiteral: ascii(at: start) == UInt8(ascii: "\""))
    }

    package func text(upTo later: LineScanner, raw: Bool) -> Word? {
        var part = LineScanner(self, from: position, to: later.position)
        return part.remainingText(raw: raw)
    }

    /// True when only white space is left.
    package var isAtEnd: Bool {
        var offset = position
        while offset < end {
            guard isBlank(at: offset) else { return false }
            offset = self.offset(after: offset)
        }
        return true
    }

    private mutating func skipWhiteSpace() {
        while position < end, isBlank(at: position) {
            position = offset(after: position)
        }
    }

    /// Reads a quoted part starting at the opening `quote`, and moves past the closing one.
    private mutating func quoted(by quote: UInt8) throws(CommandError) -> String {
        let opening = position
        position = offset(after: position)
        var text = ""
        var run = position
        while position < end {
            let character = ascii(at: position)
            if character == quote {
                text += self.text(run..<position)
                position = offset(after: position)
                return text
            }
            let next = offset(after: position)
            if quote == UInt8(ascii: "\""), character == UInt8(ascii: "\\"), next < end {
                text += self.text(run..<position)
                let escapedEnd = offset(after: next)
                switch ascii(at: next) {
                case UInt8(ascii: "n"): text += "\n"
                case UInt8(ascii: "t"): text += "\t"
                case UInt8(ascii: "\""), UInt8(ascii: "\\"): text += self.text(next..<escapedEnd)
                default: text += "\\" + self.text(next..<escapedEnd)
                }
                position = escapedEnd
                run = position
            } else {
                position = next
            }
        }
        throw .usage("unterminated \(Character(Unicode.Scalar(quote))) quote", range: range(opening..<end))
    }

    // MARK: Characters, by their bytes

    /// The line's text between two byte offsets (each at the start of a character).
    private func text(_ offsets: Range<Int>) -> String {
        String(decoding: bytes[offsets], as: UTF8.self)
    }

    /// The line's indices of a range of byte offsets.
    private func range(_ offsets: Range<Int>) -> Range<String.Index> {
        index(offsets.lowerBound)..<index(offsets.upperBound)
    }

    private func index(_ offset: Int) -> String.Index {
        line.utf8.index(line.startIndex, offsetBy: offset)
    }

    /// The first character from `start` on, before `end`, that is the ASCII character `target`.
    private func first(_ target: UInt8, from start: Int) -> Int? {
        var offset = start
        while offset < end {
            if ascii(at: offset) == target { return offset }
            offset = self.offset(after: offset)
        }
        return nil
    }

    /// Whether the character at `offset` is white space (`Character.isBlank`).
    private func isBlank(at offset: Int) -> Bool {
        guard let byte = ascii(at: offset) else { return line[index(offset)].isWhitespace }
        return Character.isBlank(ascii: byte)
    }

    /// The character at `offset` as its ASCII value (`Character.asciiValue`), nil when it has none.
    private func ascii(at offset: Int) -> UInt8? {
        if let byte = loneASCII(at: offset) { return byte }
        return line[index(offset)].asciiValue
    }

    /// Where the character at `offset` ends.
    private func offset(after offset: Int) -> Int {
        guard loneASCII(at: offset) == nil else { return offset + 1 }
        return line.utf8.distance(from: line.startIndex, to: line.index(after: index(offset)))
    }

    /// Where the character that ends at `offset` starts.
    private func offset(before offset: Int) -> Int {
        let last = offset - 1
        guard last == 0 ? bytes[last] < 0x80 : loneASCII(at: last - 1) != nil else {
            return line.utf8.distance(from: line.startIndex, to: line.index(before: index(offset)))
        }
        return last
    }

    /// The byte at `offset` when it is a character of its own: ASCII, with an ASCII byte or
    /// the line's end after it, and not CR before LF (one character). Nil: ask the grapheme rules.
    private func loneASCII(at offset: Int) -> UInt8? {
        let byte = bytes[offset]
        guard byte < 0x80 else { return nil }
        guard offset + 1 < bytes.count else { return byte }
        let following = bytes[offset + 1]
        guard following < 0x80, byte != 0x0D || following != 0x0A else { return nil }
        return byte
    }
}

/// The program's own arguments as words: the shell has already split and unquoted them.
package struct ArgumentWords: WordSource {
    private var arguments: ArraySlice<String>

    package init(_ arguments: [String]) {
        self.arguments = arguments[...]
    }

    package mutating func nextWord() throws(CommandError) -> Word? {
        arguments.popFirst().map { Word(text: $0, isLiteral: isLiteral($0)) }
    }

    package mutating func remainingText(raw: Bool) -> Word? {
        guard !arguments.isEmpty else { return nil }
        defer { arguments.removeAll() }
        return Word(text: arguments.joined(separator: " "), isLiteral: true)
    }

    package func text(upTo later: ArgumentWords, raw: Bool) -> Word? {
        var part = ArgumentWords(Array(arguments.dropLast(later.arguments.count)))
        return part.remainingText(raw: raw)
    }

    /// The shell already took its quotes: what is left is what was meant.
    package mutating func nextRawWord() -> Word? {
        guard let argument = arguments.popFirst() else { return nil }
        return Word(text: argument, isLiteral: isLiteral(argument))
    }

    /// Arguments are literal except those that look like options, which stay options.
    private func isLiteral(_ argument: String) -> Bool {
        !argument.hasPrefix("-")
    }
}

extension Character {
    /// `isWhitespace`, decided without a Unicode property lookup for ASCII: the scanner asks
    /// it of every character of every command line (a tenth of replaying a script of adds).
    var isBlank: Bool {
        guard let ascii = asciiValue else { return isWhitespace }
        return Self.isBlank(ascii: ascii)
    }

    /// Whether an ASCII character is white space: a space, tab, line feed, vertical tab, form
    /// feed or carriage return.
    static func isBlank(ascii: UInt8) -> Bool {
        ascii == 0x20 || (0x09...0x0D).contains(ascii)
    }
}
