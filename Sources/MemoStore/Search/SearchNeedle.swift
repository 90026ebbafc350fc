/// One text a search looks for in a memo's folded text (`SearchText.folded`): a word, a
/// phrase, or the start of a word (`cof*`), as typed, symbols included (`c++`, `$100`).
///
/// It is found where it stands as words do: not inside a longer word, so `cat` is not found
/// in `concatenate` nor `c++` in `abc++`, as the index finds words, and a prefix only at a
/// word's start. Han, kana and Hangul are written without spaces between words, so there any
/// place is a word's edge (`旅行` in `京都旅行の宿`), as the index's pairs of characters find.
package struct SearchNeedle: Equatable, Sendable {
    package let text: String
    package let isPrefix: Bool
    /// Whether a place where it is found must be a word's start, and a word's end.
    private let startsWord: Bool
    private let endsWord: Bool

    package init(_ text: String, isPrefix: Bool) {
        self.text = text
        self.isPrefix = isPrefix
        startsWord = text.first.map(Self.isWordCharacter) ?? false
        endsWord = !isPrefix && (text.last.map(Self.isWordCharacter) ?? false)
    }

    /// Whether `folded` holds it.
    package func isFound<Text: BidirectionalCollection>(in folded: Text) -> Bool where Text.Element == Character {
        firstPlace(in: folded, from: folded.startIndex) != nil
    }

    /// Where `folded` holds it, in order, without overlaps.
    package func places<Text: BidirectionalCollection>(in folded: Text) -> [Range<Text.Index>] where Text.Element == Character {
        var places: [Range<Text.Index>] = []
        var start = folded.startIndex
        while let place = firstPlace(in: folded, from: start) {
            places.append(place)
            start = place.upperBound
        }
        return places
    }

    private func firstPlace<Text: BidirectionalCollection>(in folded: Text, from start: Text.Index) -> Range<Text.Index>?
    where Text.Element == Character {
        guard !text.isEmpty else { return nil }
        var searchStart = start
        while searchStart < folded.endIndex, let place = folded[searchStart...].firstRange(of: text) {
            let isStart = !startsWord || place.lowerBound == folded.startIndex
                || !Self.isWordCharacter(folded[folded.index(before: place.lowerBound)])
            let isEnd = !endsWord || place.upperBound == folded.endIndex || !Self.isWordCharacter(folded[place.upperBound])
            if isStart && isEnd { return place }
            searchStart = folded.index(after: place.lowerBound)
        }
        return nil
    }

    /// Letters and digits make words, as the index's tokenizer sees them; Han, kana and
    /// Hangul do not bound one.
    private static func isWordCharacter(_ character: Character) -> Bool {
        guard let first = character.unicodeScalars.first, !Version3SearchRule.isCJK(first) else { return false }
        return character.isLetter || character.isNumber
    }
}
