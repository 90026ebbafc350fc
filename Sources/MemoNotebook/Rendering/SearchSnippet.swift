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
        var content = content
        guard let snippet = content.withUTF8({ Self.firstMatchedLine(in: $0, needles) }) else { return nil }
        self = snippet
    }

    private init(line: String, matches: [Range<String.Index>], followsLines: Bool, isFollowed: Bool) {
        self.line = line
        self.matches = matches
        self.followsLines = followsLines
        self.isFollowed = isFollowed
    }

    /// The first line of `text` that holds a needle, lines cut as `MemoContent.lines` cuts
    /// them. Lines are found in the bytes and folded one at a time up to that one (a walk of
    /// the text's `String` indices cost more than the folding).
    private static func firstMatchedLine(in text: UnsafeBufferPointer<UInt8>, _ needles: [SearchNeedle]) -> Self? {
        var start = 0
        while true {
            let lineFeed = text[start...].firstIndex(of: UInt8(ascii: "\n"))
            var end = lineFeed ?? text.count
            if lineFeed != nil, end > start, text[end - 1] == UInt8(ascii: "\r") { end -= 1 }
            let line = String(decoding: UnsafeBufferPointer(rebasing: text[start..<end]), as: UTF8.self)
            let folded = FoldedLine(line)
            let matches = needles.flatMap { folded.ranges(of: $0) }.sorted { $0.lowerBound < $1.lowerBound }
            if !matches.isEmpty {
                return Self(line: line, matches: matches, followsLines: start > 0, isFollowed: lineFeed != nil)
            }
            guard let lineFeed else { return nil }
            start = lineFeed + 1
        }
    }
}

/// A line folded character by character as a search folds text, with each folded character's
/// place in the line, so a match found in the folded text is a range of the line.
///
/// Read as UTF-8 bytes: a character `FoldedText.plainCharacterEnd` decides (one ASCII byte,
/// or one that folds to itself) is taken as it stands; any other is cut and folded as a
/// `Character`.
private struct FoldedLine {
    private let line: String
    private var folded = FoldedText()
    /// Where each folded character's character stands in the line, in UTF-8 offsets.
    private var origins: [Range<Int>] = []

    init(_ line: String) {
        self.line = line
        var bytes = line
        bytes.withUTF8 { fold($0) }
    }

    private mutating func fold(_ bytes: UnsafeBufferPointer<UInt8>) {
        let utf8 = line.utf8
        folded.reserveCapacity(bytes.count)
        origins.reserveCapacity(bytes.count)
        var lastWasSpace = false
        var offset = 0
        while offset < bytes.count {
            if let end = FoldedText.plainCharacterEnd(in: bytes, at: offset) {
                let byte = bytes[offset]
                if end > offset + 1 {
                    folded.append(characterBytes: UnsafeBufferPointer(rebasing: bytes[offset..<end]))
                    origins.append(offset..<end)
                    lastWasSpace = false
                } else if byte == 0x20 || (0x09...0x0D).contains(byte) {
                    if !lastWasSpace {
                        folded.append(asciiCharacter: 0x20)
                        origins.append(offset..<end)
                    }
                    lastWasSpace = true
                } else {
                    // A character of one ASCII byte folds to its lower case.
                    folded.append(asciiCharacter: (0x41...0x5A).contains(byte) ? byte + 0x20 : byte)
                    origins.append(offset..<end)
                    lastWasSpace = false
                }
                offset = end
                continue
            }
            let characterStart = offset
            let start = utf8.index(utf8.startIndex, offsetBy: offset)
            let endIndex = line.index(after: start)
            let end = utf8.distance(from: utf8.startIndex, to: endIndex)
            let character = line[start..<endIndex]
            offset = end
            if character.first?.isWhitespace == true {
                if !lastWasSpace {
                    folded.append(asciiCharacter: 0x20)
                    origins.append(characterStart..<end)
                }
                lastWasSpace = true
                continue
            }
            lastWasSpace = false
            let added = folded.append(folded: SearchText.folded(String(character)))
            origins.append(contentsOf: repeatElement(characterStart..<end, count: added))
        }
    }

    /// The ranges of the line where `needle` is found, not overlapping.
    func ranges(of needle: SearchNeedle) -> [Range<String.Index>] {
        let utf8 = line.utf8
        return needle.places(in: folded).map {
            utf8.index(
                utf8.startIndex, offsetBy: origins[$0.lowerBound].lowerBound)..<utf8.index(
                    utf8.startIndex, offsetBy: origins[$0.upperBound - 1].upperBound)
        }
    }
}
