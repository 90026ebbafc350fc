/// One word of a command: its value after quotes and escapes are resolved, and where it
/// stood in the line (for error ranges in editors).
package struct Word: Equatable, Sendable {
    package var text: String
    /// The word's place in its source line; nil for words that came as program arguments.
    package var range: Range<String.Index>?
    /// True when the word was quoted, or came as a program argument: it is then taken
    /// literally and never read as an option or a heredoc marker.
    package var isLiteral: Bool

    package init(text: String, range: Range<String.Index>? = nil, isLiteral: Bool) {
        self.text = text
        self.range = range
        self.isLiteral = isLiteral
    }

    /// Whether this word is an option such as `--tag` or `-n`.
    var isOption: Bool {
        !isLiteral && text.count > 1 && text.hasPrefix("-") && !text.dropFirst().allSatisfy(\.isNumber)
    }
}

/// Where a parser reads words from: a typed line, or the program's arguments.
package protocol WordSource {
    /// The next word, or nil at the end.
    mutating func nextWord() throws(CommandError) -> Word?
    /// Everything that is left, as one text argument: a lone quoted word is unquoted
    /// (unless `raw`, for arguments such as a search, whose quotes mean something),
    /// anything else is kept as typed. Nil when nothing is left.
    mutating func remainingText(raw: Bool) -> Word?
    /// The next word as it was typed, quotes kept: white space ends it but inside double
    /// quotes, and a single quote is a character (a search: `don't`, `"a phrase"`).
    mutating func nextRawWord() -> Word?
    /// The text from here to where `later` (this source, read further) stands, as
    /// `remainingText` would give it were that the end.
    func text(upTo later: Self, raw: Bool) -> Word?
}
