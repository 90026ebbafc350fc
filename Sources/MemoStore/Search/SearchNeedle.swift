/// One text a search looks for in a memo's folded text (`SearchText.folded`): a word, a
/// phrase, or the start of a word (`cof*`), as typed, symbols included (`c++`, `$100`).
///
/// It is found where it stands as words do: not inside a longer word, so `cat` is not found
/// in `concatenate` nor `c++` in `abc++`, as the index finds words, and a prefix only at a
/// word's start. Han, kana and Hangul are written without spaces between words, so there any
/// place is a word's edge (`旅行` in `京都旅行の宿`), as the index's pairs of characters find.
/// It ends where a character ends, or before the skin tones that end one: an emoji typed
/// without a skin tone finds it with any (`👍` finds `👍🏽`), one typed with a skin tone finds
/// only that one.
package struct SearchNeedle: Equatable, Sendable {
    package let text: String
    package let isPrefix: Bool
    /// `text`'s bytes, as a folded text's are compared.
    private let utf8: [UInt8]
    /// Whether a place where it is found must be a word's start, and a word's end.
    private let startsWord: Bool
    private let endsWord: Bool

    package init(_ text: String, isPrefix: Bool) {
        self.text = text
        self.isPrefix = isPrefix
        utf8 = Array(text.utf8)
        startsWord = text.first.map(Self.isWordCharacter) ?? false
        endsWord = !isPrefix && (text.last.map(Self.isWordCharacter) ?? false)
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

    /// The first place at or after byte `start` where the bytes of `text` stand between two
    /// character edges, with a word's edges where it needs them.
    private func firstPlace(in folded: FoldedText, fromByte start: Int) -> Range<Int>? {
        guard let first = utf8.first else { return nil }
        let bytes = folded.bytes
        var candidate = start
        while candidate + utf8.count <= bytes.count {
            guard let hit = bytes[candidate...(bytes.count - utf8.count)].firstIndex(of: first) else { return nil }
            candidate = hit + 1
            guard bytes[hit..<(hit + utf8.count)].elementsEqual(utf8),
                  let lower = folded.characterPosition(atByte: hit),
                  let upper = folded.characterPosition(atByte: hit + utf8.count) ?? Self.characterEdge(in: folded, passingSkinTonesFrom: hit + utf8.count)
            else { continue }
            let isStart = !startsWord || lower == 0 || !Self.isWordCharacter(folded, at: lower - 1)
            let isEnd = !endsWord || upper == folded.count || !Self.isWordCharacter(folded, at: upper)
            if isStart && isEnd { return lower..<upper }
        }
        return nil
    }

    /// The character edge just after the skin tones that start at byte `offset`, inside a
    /// character; nil when no skin tone starts there or the character goes on after them. A
    /// needle typed without a skin tone ends there: `👍` is found in `👍🏽`, while `👍🏽` is not
    /// found in `👍` nor `👍🏿`, as its bytes are not there.
    private static func characterEdge(in folded: FoldedText, passingSkinTonesFrom offset: Int) -> Int? {
        var end = offset
        while end < folded.bytes.count, folded.bytes[end] >= 0xF0 {
            let (scalar, next) = folded.bytes.withUnsafeBufferPointer { UTF8Bytes.scalar(in: $0, at: end) }
            guard SearchText.isSkinTone(scalar) else { break }
            end = next
        }
        return end > offset ? folded.characterPosition(atByte: end) : nil
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
        guard let first = character.unicodeScalars.first, !Version3SearchRule.isCJK(first) else { return false }
        return character.isLetter || character.isNumber
    }
}
