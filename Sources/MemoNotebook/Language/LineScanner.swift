/// Splits one line of the command language into words.
///
/// Words are separated by white space; single quotes keep everything literally; double
/// quotes understand `\n`, `\t`, `\"` and `\\`. Quoted parts join the word they touch,
/// as in a shell: `a"b c"` is the one word `ab c`.
///
/// It reads the line's characters (`Character`), but an ASCII byte with an ASCII byte (or the
/// line's end) after it is a character of its own (CR before LF aside), so those it takes
/// from the UTF-8 bytes without the grapheme rules, and the words' text in runs, not a
/// character at a time: a script of commands is mostly such bytes (a third of replaying
/// a script of adds was reading its lines character by character).
package struct LineScanner: WordSource {
    package let line: String
    private var position: String.Index
    /// Where scanning stops: the line's end, or the start of a heredoc opener.
    private let end: String.Index

    package init(_ line: String, end: String.Index? = nil) {
        self.line = line
        self.position = line.startIndex
        self.end = end ?? line.endIndex
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
                text.append(contentsOf: line[run..<position])
                isQuoted = true
                text += try quoted(by: quote)
                run = position
            } else {
                position = index(after: position)
            }
        }
        text.append(contentsOf: line[run..<position])
        return Word(text: text, range: start..<position, isLiteral: isQuoted)
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
            let before = index(before: textEnd)
            guard isBlank(at: before) else { break }
            textEnd = before
        }
        let word = Word(text: String(line[position..<textEnd]), range: position..<textEnd, isLiteral: false)
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
        if ascii(at: start) == UInt8(ascii: "'"), let closing = firstIndex(of: UInt8(ascii: "'"), from: index(after: start)) {
            position = index(after: closing)
            return Word(text: String(line[index(after: start)..<closing]), range: start..<position, isLiteral: true)
        }
        var isInPhrase = false
        while position < end, isInPhrase || !isBlank(at: position) {
            if ascii(at: position) == UInt8(ascii: "\"") { isInPhrase.toggle() }
            position = index(after: position)
        }
        return Word(
            text: String(line[start..<position]), range: start..<position,
            isLiteral: ascii(at: start) == UInt8(ascii: "\""))
    }

    package func text(upTo later: LineScanner, raw: Bool) -> Word? {
        var part = LineScanner(line, end: later.position)
        part.position = position
        return part.remainingText(raw: raw)
    }

    /// True when only white space is left.
    package var isAtEnd: Bool {
        var index = position
        while index < end {
            guard isBlank(at: index) else { return false }
            index = self.index(after: index)
        }
        return true
    }

    private mutating func skipWhiteSpace() {
        while position < end, isBlank(at: position) {
            position = index(after: position)
        }
    }

    /// Reads a quoted part starting at the opening `quote`, and moves past the closing one.
    private mutating func quoted(by quote: UInt8) throws(CommandError) -> String {
        let opening = position
        position = index(after: position)
        var text = ""
        var run = position
        while position < end {
            let character = ascii(at: position)
            if character == quote {
                text.append(contentsOf: line[run..<position])
                position = index(after: position)
                return text
            }
            let next = index(after: position)
            if quote == UInt8(ascii: "\""), character == UInt8(ascii: "\\"), next < end {
                text.append(contentsOf: line[run..<position])
                let escapedEnd = index(after: next)
                switch ascii(at: next) {
                case UInt8(ascii: "n"): text.append("\n")
                case UInt8(ascii: "t"): text.append("\t")
                case UInt8(ascii: "\""), UInt8(ascii: "\\"): text.append(contentsOf: line[next..<escapedEnd])
                default: text += "\\" + line[next..<escapedEnd]
                }
                position = escapedEnd
                run = position
            } else {
                position = next
            }
        }
        throw .usage("unterminated \(Character(Unicode.Scalar(quote))) quote", range: opening..<end)
    }

    // MARK: Characters

    /// The first character from `start` on, before `end`, that is the ASCII character `target`.
    private func firstIndex(of target: UInt8, from start: String.Index) -> String.Index? {
        var index = start
        while index < end {
            if ascii(at: index) == target { return index }
            index = self.index(after: index)
        }
        return nil
    }

    /// Whether the character at `index` is white space (`Character.isBlank`).
    private func isBlank(at index: String.Index) -> Bool {
        guard let byte = ascii(at: index) else { return line[index].isWhitespace }
        return Character.isBlank(ascii: byte)
    }

    /// The character at `index` as its ASCII value (`Character.asciiValue`), nil when it has none.
    private func ascii(at index: String.Index) -> UInt8? {
        if let byte = loneASCII(at: index) { return byte }
        return line[index].asciiValue
    }

    /// Where the character at `index` ends.
    private func index(after index: String.Index) -> String.Index {
        loneASCII(at: index) == nil ? line.index(after: index) : line.utf8.index(after: index)
    }

    /// Where the character that ends at `index` starts.
    private func index(before index: String.Index) -> String.Index {
        let utf8 = line.utf8
        let last = utf8.index(before: index)
        let isLone = last == line.startIndex ? utf8[last] < 0x80 : loneASCII(at: utf8.index(before: last)) != nil
        return isLone ? last : line.index(before: index)
    }

    /// The byte at `index` when it is a character of its own: ASCII, with an ASCII byte or the
    /// line's end after it, and not CR before LF (one character). Nil means: ask the grapheme rules.
    private func loneASCII(at index: String.Index) -> UInt8? {
        let utf8 = line.utf8
        let byte = utf8[index]
        guard byte < 0x80 else { return nil }
        let next = utf8.index(after: index)
        guard next < line.endIndex else { return byte }
        let following = utf8[next]
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
