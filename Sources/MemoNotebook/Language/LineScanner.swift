/// Splits one line of the command language into words.
///
/// Words are separated by white space; single quotes keep everything literally; double
/// quotes understand `\n`, `\t`, `\"` and `\\`. Quoted parts join the word they touch,
/// as in a shell: `a"b c"` is the one word `ab c`.
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
        while position < end, !line[position].isBlank {
            let character = line[position]
            if character == "'" || character == "\"" {
                isQuoted = true
                text += try quoted(by: character)
            } else {
                text.append(character)
                position = line.index(after: position)
            }
        }
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
        while textEnd > position, line[line.index(before: textEnd)].isBlank {
            textEnd = line.index(before: textEnd)
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
        if line[start] == "'", let closing = line[line.index(after: start)..<end].firstIndex(of: "'") {
            position = line.index(after: closing)
            return Word(
                text: String(line[line.index(after: start)..<closing]), range: start..<position, isLiteral: true)
        }
        var isInPhrase = false
        while position < end, isInPhrase || !line[position].isBlank {
            if line[position] == "\"" { isInPhrase.toggle() }
            position = line.index(after: position)
        }
        return Word(text: String(line[start..<position]), range: start..<position, isLiteral: line[start] == "\"")
    }

    package func text(upTo later: LineScanner, raw: Bool) -> Word? {
        var part = LineScanner(line, end: later.position)
        part.position = position
        return part.remainingText(raw: raw)
    }

    /// True when only white space is left.
    package var isAtEnd: Bool {
        line[position..<end].allSatisfy(\.isBlank)
    }

    private mutating func skipWhiteSpace() {
        while position < end, line[position].isBlank {
            position = line.index(after: position)
        }
    }

    /// Reads a quoted part starting at the opening `quote`, and moves past the closing one.
    private mutating func quoted(by quote: Character) throws(CommandError) -> String {
        let opening = position
        position = line.index(after: position)
        var text = ""
        while position < end {
            let character = line[position]
            position = line.index(after: position)
            if character == quote { return text }
            if quote == "\"", character == "\\", position < end {
                let escaped = line[position]
                position = line.index(after: position)
                switch escaped {
                case "n": text.append("\n")
                case "t": text.append("\t")
                case "\"", "\\": text.append(escaped)
                default: text += "\\" + String(escaped)
                }
            } else {
                text.append(character)
            }
        }
        throw .usage("unterminated \(quote) quote", range: opening..<end)
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
        return ascii == 0x20 || (0x09...0x0D).contains(ascii)
    }
}
