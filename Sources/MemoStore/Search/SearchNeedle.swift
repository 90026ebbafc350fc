/// One text a search looks for in a memo's folded text (`SearchText.folded`): a word, a
/// phrase, or the start of a word (`cof*`), as typed, symbols included (`c++`, `$100`); or,
/// for `search -F`, a fixed string.
///
/// A word or phrase is found where it stands as words do: not inside a longer word, so `cat`
/// is not found in `concatenate` nor `c++` in `abc++`, as the index finds words, and a prefix
/// only at a word's start. Han, kana and Hangul are written without spaces between words, so
/// there any place is a word's edge (`旅行` in `京都旅行の宿`), as the index's pairs of
/// characters find. A phrase's space stands for whatever splits words for the index (white
/// space, punctuation, symbols but emoji), so `jean paul` is found in `jean-paul` and
/// `jean, paul`. A fixed string is found anywhere, as grep -F finds it, its spaces as spaces.
/// Each part ends where a character ends, or before the skin tones that end one: an emoji
/// typed without a skin tone finds it with any (`👍` finds `👍🏽`), one typed with a skin tone
/// finds only that one.
package struct SearchNeedle: Equatable, Sendable {
    package enum Kind: Equatable, Sendable {
        case word, prefix, substring
    }

    package let text: String
    package let kind: Kind
    package var isPrefix: Bool { kind == .prefix }
    /// `text`'s bytes, as a folded text's are compared: the whole text, or for a phrase its
    /// words, the parts between its spaces.
    private let parts: [[UInt8]]
    /// Whether a place where it is found must be a word's start, and a word's end.
    private let startsWord: Bool
    private let endsWord: Bool

    package init(_ text: String, isPrefix: Bool) {
        self.init(text, kind: isPrefix ? .prefix : .word)
    }

    package init(_ text: String, kind: Kind) {
        self.text = text
        self.kind = kind
        let isFixed = kind == .substring
        parts = isFixed ? [Array(text.utf8)] : text.split(separator: " ").map { Array($0.utf8) }
        startsWord = !isFixed && (text.first.map(Self.isWordCharacter) ?? false)
        endsWord = kind == .word && (text.last.map(Self.isWordCharacter) ?? false)
    }

    /// Whether `folded` holds it.
    package func isFound(in folded: FoldedText) -> Bool {
        firstPlace(in: folded, fromByte: 0) != nil
    }

    /// Where `folded` holds it, in order, without overlaps: ranges of its characters.
    package func places(in folded: FoldedText) -> [Range<Int>] {
        var places: [Range<Int>] = []
        var start = 0
        while let place = firstPlace(in: folded, fromByte: start) {
            places.append(place)
            start = folded.byteOffset(ofCharacter: place.upperBound)
        }
        return places
    }

    /// The first place at or after byte `start` where the bytes of the first part stand
    /// between two character edges, the other parts after it each past a run of separators,
    /// with a word's edges where it needs them.
    private func firstPlace(in folded: FoldedText, fromByte start: Int) -> Range<Int>? {
        guard let part = parts.first, let first = part.first else { return nil }
        let bytes = folded.bytes
        var candidate = start
        while candidate + part.count <= bytes.count {
            guard let hit = bytes[candidate...(bytes.count - part.count)].firstIndex(of: first) else { return nil }
            candidate = hit + 1
            guard bytes[hit..<(hit + part.count)].elementsEqual(part),
                let lower = folded.characterPosition(atByte: hit),
                let upper = Self.characterEnd(in: folded, atByte: hit + part.count),
                !startsWord || lower == 0 || !Self.isWordCharacter(folded, at: lower - 1),
                let end = endOfParts(from: 1, after: upper, in: folded)
            else { continue }
            return lower..<end
        }
        return nil
    }

    /// The character edge at byte `offset`, or just after the skin tones that start there
    /// inside a character; nil when neither. A needle typed without a skin tone ends there:
    /// `👍` is found in `👍🏽`, while `👍🏽` is not found in `👍` nor `👍🏿`, as its bytes are
    /// not there.
    private static func characterEnd(in folded: FoldedText, atByte offset: Int) -> Int? {
        if let edge = folded.characterPosition(atByte: offset) { return edge }
        var end = offset
        while end < folded.bytes.count, folded.bytes[end] >= 0xF0 {
            let (scalar, next) = folded.bytes.withUnsafeBufferPointer { UTF8Bytes.scalar(in: $0, at: end) }
            guard SearchText.isSkinTone(scalar) else { break }
            end = next
        }
        return end > offset ? folded.characterPosition(atByte: end) : nil
    }

    /// Where the parts from `index` on end, each after a run of separators, the first run
    /// beginning at `position`; nil where they do not follow so, or end inside a word that
    /// the needle must end with. Each length of run is tried, as a part may begin with a
    /// separator (`a (b` in `a ((b`).
    private func endOfParts(from index: Int, after position: Int, in folded: FoldedText) -> Int? {
        guard index < parts.count else {
            return !endsWord || position == folded.count || !Self.isWordCharacter(folded, at: position) ? position : nil
        }
        var next = position
        while next < folded.count, Self.isSeparator(folded, at: next) {
            next += 1
            if let upper = end(of: parts[index], at: next, in: folded),
                let end = endOfParts(from: index + 1, after: upper, in: folded)
            {
                return end
            }
        }
        return nil
    }

    /// The character after `part` when its bytes stand at character `position`, ending at a
    /// character's edge (or before skin tones, as `characterEnd` allows).
    private func end(of part: [UInt8], at position: Int, in folded: FoldedText) -> Int? {
        let start = folded.byteOffset(ofCharacter: position)
        guard start + part.count <= folded.bytes.count, folded.bytes[start..<(start + part.count)].elementsEqual(part)
        else { return nil }
        return Self.characterEnd(in: folded, atByte: start + part.count)
    }

    /// Whether the character splits words for the index and is not a word of its own:
    /// white space, punctuation, and symbols such as `+`, `$` or `^`, not emoji.
    private static func isSeparator(_ folded: FoldedText, at position: Int) -> Bool {
        let start = folded.characterStarts[position]
        let byte = folded.bytes[start]
        if byte < 0x80 && folded.byteOffset(ofCharacter: position + 1) == start + 1 {
            return !((0x30...0x39).contains(byte) || (0x41...0x5A).contains(byte) || (0x61...0x7A).contains(byte))
        }
        guard let scalar = folded.character(at: position).unicodeScalars.first else { return false }
        switch scalar.properties.generalCategory {
        case .connectorPunctuation, .dashPunctuation, .openPunctuation, .closePunctuation, .initialPunctuation,
            .finalPunctuation, .otherPunctuation, .spaceSeparator, .lineSeparator, .paragraphSeparator,
            .mathSymbol, .currencySymbol, .modifierSymbol, .control:
            return true
        default:
            return false
        }
    }

    private static func isWordCharacter(_ folded: FoldedText, at position: Int) -> Bool {
        let start = folded.characterStarts[position]
        let byte = folded.bytes[start]
        if byte < 0x80 && folded.byteOffset(ofCharacter: position + 1) == start + 1 {
            return (0x30...0x39).contains(byte) || (0x41...0x5A).contains(byte) || (0x61...0x7A).contains(byte)
        }
        return isWordCharacter(folded.character(at: position))
    }

    /// Letters and digits make words, as the index's tokenizer sees them; Han, kana and
    /// Hangul do not bound one.
    private static func isWordCharacter(_ character: Character) -> Bool {
        guard let first = character.unicodeScalars.first, !CJKPairs.isCJK(first) else { return false }
        return character.isLetter || character.isNumber
    }
}
