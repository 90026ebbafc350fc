import MemoStore

/// Where a memo matched a search, as a listing shows it: the first line of its text that holds
/// what was typed (folded as the search folds it), and the ranges of the matches in that line,
/// so text output can show the line with the matches highlighted, as grep does, and `--json`
/// can give it as `snippet`.
struct SearchSnippet {
    /// The line, as the memo has it.
    let line: String
    /// Where in `line` the matched texts stand.
    let matches: [Range<String.Index>]
    /// Whether the memo has lines before the one shown, and after it.
    let followsLines: Bool
    let isFollowed: Bool

    /// The snippet of `content` for `query`; nil when no line holds a matched text (a match
    /// across lines, or a search of tags only): the first line then stands for the memo.
    init?(of content: String, for query: SearchQuery) {
        let needles = query.needles
        guard !needles.isEmpty else { return nil }
        let lines = Self.lines(of: content)
        for (number, line) in lines.enumerated() {
            let folded = FoldedLine(String(line))
            let matches = needles.flatMap { folded.ranges(of: $0) }.sorted { $0.lowerBound < $1.lowerBound }
            guard !matches.isEmpty else { continue }
            self.line = String(line)
            self.matches = matches
            followsLines = number > 0
            isFollowed = number < lines.count - 1
            return
        }
        return nil
    }

    /// The lines of `content` as `Character`s split them (at each line feed, but the one of
    /// a CR LF pair, which is one character), found by its bytes.
    private static func lines(of content: String) -> [Substring] {
        var lines: [Substring] = []
        let utf8 = content.utf8
        var start = utf8.startIndex, previous: UInt8 = 0
        var index = start
        while index < utf8.endIndex {
            let byte = utf8[index]
            let next = utf8.index(after: index)
            if byte == 0x0A && previous != 0x0D {
                lines.append(content[start..<index])
                start = next
            }
            previous = byte
            index = next
        }
        lines.append(content[start...])
        return lines
    }
}

/// A line folded character by character as a search folds text, with each folded character's
/// place in the line, so a match found in the folded text is a range of the line.
private struct FoldedLine {
    private var folded = FoldedText()
    private var origins: [Range<String.Index>] = []

    init(_ line: String) {
        var lastWasSpace = false
        var index = line.startIndex
        while index < line.endIndex {
            let end = FoldedText.characterEnd(in: line, from: index)
            let place = index..<end
            index = end
            // A character of one ASCII byte folds to its lower case: most text, decided
            // without the folding of a whole string a character.
            let byte = line.utf8[place.lowerBound]
            if line.utf8.index(after: place.lowerBound) == end && byte != 0x20 && !(0x09...0x0D).contains(byte) {
                folded.append(asciiCharacter: (0x41...0x5A).contains(byte) ? byte + 0x20 : byte)
                origins.append(place)
                lastWasSpace = false
                continue
            }
            let scalars = line.unicodeScalars
            if scalars.index(after: place.lowerBound) == end, SearchText.foldsToItself(scalars[place.lowerBound]) {
                folded.append(characterBytes: line[place].utf8)
                origins.append(place)
                lastWasSpace = false
                continue
            }
            let character = line[place]
            if character.first?.isWhitespace == true {
                if !lastWasSpace {
                    folded.append(asciiCharacter: 0x20)
                    origins.append(place)
                }
                lastWasSpace = true
                continue
            }
            lastWasSpace = false
            let added = folded.append(folded: SearchText.folded(String(character)))
            origins.append(contentsOf: repeatElement(place, count: added))
        }
    }

    /// The ranges of the line where `needle` is found, not overlapping.
    func ranges(of needle: SearchNeedle) -> [Range<String.Index>] {
        needle.places(in: folded).map { origins[$0.lowerBound].lowerBound..<origins[$0.upperBound - 1].upperBound }
    }
}
