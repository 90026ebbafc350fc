/// Text folded as a search compares it (`SearchText.folded`), kept as UTF-8 bytes that know
/// where each of their characters starts: a needle is found by comparing bytes, at character
/// edges, instead of comparing `Character`s one by one (each a grapheme-breaking, normalizing
/// comparison), which made a search's snippets most of its time.
///
/// Bytes at character edges stand for characters: folded texts are in NFC, where two equal
/// characters have equal bytes, and a match must start and end where characters do, so `e`
/// is not found at the start of `e⃝` (an enclosing circle); only a needle typed without a
/// skin tone may end before one (`SearchNeedle`: `👍` is found in `👍🏽`).
package struct FoldedText {
    package private(set) var bytes: [UInt8] = []
    /// The offset in `bytes` where each character starts, ascending.
    package private(set) var characterStarts: [Int] = []

    package init() {}

    /// Text already folded (`SearchText.folded`).
    package init(folded: String) {
        append(folded: folded)
    }

    /// Makes room for about `count` bytes and as many characters.
    package mutating func reserveCapacity(_ count: Int) {
        bytes.reserveCapacity(count)
        characterStarts.reserveCapacity(count)
    }

    /// The number of characters.
    package var count: Int { characterStarts.count }

    /// Appends one character of one ASCII byte.
    package mutating func append(asciiCharacter byte: UInt8) {
        characterStarts.append(bytes.count)
        bytes.append(byte)
    }

    /// Appends one character already folded, given by its bytes.
    package mutating func append(characterBytes: UnsafeBufferPointer<UInt8>) {
        characterStarts.append(bytes.count)
        bytes.append(contentsOf: characterBytes)
    }

    /// Appends text already folded, a character at a time; returns how many it appended.
    @discardableResult
    package mutating func append(folded text: String) -> Int {
        let before = count
        let utf8 = text.utf8
        var index = utf8.startIndex
        while index < utf8.endIndex {
            characterStarts.append(bytes.count)
            let next = Self.characterEnd(in: text, from: index)
            bytes.append(contentsOf: utf8[index..<next])
            index = next
        }
        return count - before
    }

    /// Where the character of `text` that starts at `index` ends (`plainCharacterEnd` where
    /// that decides it, else the grapheme rules).
    package static func characterEnd(in text: String, from index: String.Index) -> String.Index {
        var bytes = text
        let utf8 = text.utf8, offset = utf8.distance(from: utf8.startIndex, to: index)
        guard let end = bytes.withUTF8({ plainCharacterEnd(in: $0, at: offset) }) else {
            return text.index(after: index)
        }
        return utf8.index(utf8.startIndex, offsetBy: end)
    }

    /// Where the character that starts at `offset` of valid UTF-8 ends, when no grapheme rule
    /// is needed to tell; nil otherwise. A byte of ASCII followed by another (or by nothing)
    /// is a character of its own, except a carriage return, which joins a line feed; so is a
    /// character that folds to itself (`SearchText.foldsToItself`: ideographs, syllables,
    /// kana letters, pictographs) before ASCII or another of them, as no grapheme rule joins
    /// those (a skin tone, a joiner or a trailing jamo is not among them). Most text is
    /// decided so.
    package static func plainCharacterEnd(in bytes: UnsafeBufferPointer<UInt8>, at offset: Int) -> Int? {
        func isASCII(at offset: Int) -> Bool { offset == bytes.count || bytes[offset] < 0x80 }
        let byte = bytes[offset]
        if byte < 0x80 { return byte != 0x0D && isASCII(at: offset + 1) ? offset + 1 : nil }
        guard byte >= 0xE2 else { return nil }
        let (scalar, end) = UTF8Bytes.scalar(in: bytes, at: offset)
        guard SearchText.foldsToItself(scalar),
            isASCII(at: end) || SearchText.foldsToItself(UTF8Bytes.scalar(in: bytes, at: end).0)
        else { return nil }
        return end
    }

    /// The character at `position`.
    func character(at position: Int) -> Character {
        let start = characterStarts[position]
        let end = position + 1 < count ? characterStarts[position + 1] : bytes.count
        if end - start == 1 { return Character(Unicode.Scalar(bytes[start])) }
        return Character(String(decoding: bytes[start..<end], as: UTF8.self))
    }

    /// The character that starts at byte `offset`; `count` at the end; nil inside a character.
    func characterPosition(atByte offset: Int) -> Int? {
        if offset == bytes.count { return count }
        var low = 0, high = count
        while low < high {
            let middle = (low + high) / 2
            if characterStarts[middle] < offset { low = middle + 1 } else { high = middle }
        }
        return low < count && characterStarts[low] == offset ? low : nil
    }

    /// The byte offset where the character at `position` starts (`bytes.count` at the end).
    func byteOffset(ofCharacter position: Int) -> Int {
        position < count ? characterStarts[position] : bytes.count
    }
}
