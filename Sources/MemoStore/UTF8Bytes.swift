/// Strict UTF-8 validation of raw bytes, and whether they hold a control character, in one
/// pass: the paths that copy every memo's bytes from SQLite to the output (listing, export,
/// state names) check each text this way. The standard library's validator answers only the
/// first question and is the larger part of a text listing's own time; this one skips eight
/// ASCII bytes at a time, and a test holds it equal to the standard library on every short
/// sequence and on random text (`UTF8BytesTests`).
package enum UTF8Bytes {
    package enum Kind: Equatable {
        /// Not strict UTF-8 (as Swift decodes it: no overlong forms, surrogates or code points
        /// above U+10FFFF).
        case invalid
        /// Valid UTF-8 without a control character (C0, DEL or C1): it prints as it is.
        case plain
        /// Valid UTF-8 with at least one control character.
        case withControls
    }

    /// Where the first byte of `text` from `start` on that `isWanted` stands, or nil: searched
    /// in the text's UTF-8 storage, as a generic search of `String.UTF8View` costs ten times as
    /// much a byte (an import looks for tags and references in every memo).
    static func firstIndex(
        in text: String, from start: String.Index, where isWanted: (UInt8) -> Bool
    ) -> String.Index? {
        var text = text
        let offset = text.utf8.distance(from: text.startIndex, to: start)
        let found = text.withUTF8 { bytes in bytes[offset...].firstIndex(where: isWanted) }
        return found.map { text.utf8.index(text.startIndex, offsetBy: $0) }
    }

    package static func isValid(_ bytes: UnsafeRawBufferPointer) -> Bool {
        kind(of: bytes) != .invalid
    }

    package static func kind(of bytes: UnsafeRawBufferPointer) -> Kind {
        guard let base = bytes.baseAddress else { return .plain }
        let byte = base.assumingMemoryBound(to: UInt8.self), count = bytes.count
        var index = 0, hasControl = false
        /// Whether the `n` bytes after the lead are continuation bytes, the first in `second`.
        func followedBy(_ n: Int, second: ClosedRange<UInt8>) -> Bool {
            guard index + n < count, second.contains(byte[index + 1]) else { return false }
            return n < 2 || (byte[index + 2] & 0xC0 == 0x80 && (n < 3 || byte[index + 3] & 0xC0 == 0x80))
        }
        while index < count {
            let lead = byte[index]
            if lead < 0x80 {
                // ASCII: eight bytes at a time, or as many of the next eight as are ASCII.
                guard index + 8 <= count else {
                    if lead < 0x20 || lead == 0x7F { hasControl = true }
                    index += 1
                    continue
                }
                let word = UnsafeRawPointer(byte + index).loadUnaligned(as: UInt64.self)
                let ascii = asciiPrefixLength(word)
                if !hasControl { hasControl = hasC0OrDelete(keepingFirst: ascii, of: word) }
                index += ascii
                continue
            }
            if lead >= 0xE1, lead <= 0xEF, lead != 0xED, index + 2 < count {
                // Three bytes whose second may be any continuation byte: most of the BMP (CJK,
                // Hangul, punctuation), the common case after ASCII, checked without the table.
                guard byte[index + 1] & 0xC0 == 0x80, byte[index + 2] & 0xC0 == 0x80 else { return .invalid }
                index += 3
                continue
            }
            switch lead {
            case 0xC2...0xDF:
                guard followedBy(1, second: 0x80...0xBF) else { return .invalid }
                if lead == 0xC2 && byte[index + 1] <= 0x9F { hasControl = true }
                index += 2
            case 0xE0...0xEF:
                let second: ClosedRange<UInt8> = lead == 0xE0 ? 0xA0...0xBF : lead == 0xED ? 0x80...0x9F : 0x80...0xBF
                guard followedBy(2, second: second) else { return .invalid }
                index += 3
            case 0xF0...0xF4:
                let second: ClosedRange<UInt8> = lead == 0xF0 ? 0x90...0xBF : lead == 0xF4 ? 0x80...0x8F : 0x80...0xBF
                guard followedBy(3, second: second) else { return .invalid }
                index += 4
            default:
                return .invalid
            }
        }
        return hasControl ? .withControls : .plain
    }

    /// The scalar that starts at `offset` of valid UTF-8 (a `String`'s bytes), and the offset
    /// after it.
    package static func scalar(in bytes: UnsafeBufferPointer<UInt8>, at offset: Int) -> (Unicode.Scalar, end: Int) {
        let lead = UInt32(bytes[offset])
        guard lead >= 0x80 else { return (Unicode.Scalar(UInt8(lead)), offset + 1) }
        let length = lead >= 0xF0 ? 4 : lead >= 0xE0 ? 3 : 2
        var value = lead & (0x7F >> length)
        for index in 1..<length { value = value << 6 | UInt32(bytes[offset + index] & 0x3F) }
        return (Unicode.Scalar(value) ?? "\u{FFFD}", offset + length)
    }

    /// How many of the eight bytes of `word` (in memory order) are ASCII before the first
    /// that is not: 8 when all are.
    private static func asciiPrefixLength(_ word: UInt64) -> Int {
        let high = word.littleEndian & 0x8080_8080_8080_8080
        return high == 0 ? 8 : high.trailingZeroBitCount >> 3
    }

    /// Whether one of the first `count` bytes of `word` (1 to 8, in memory order) is below
    /// 0x20 or is 0x7F: the others are replaced by a letter first.
    private static func hasC0OrDelete(keepingFirst count: Int, of word: UInt64) -> Bool {
        let letters: UInt64 = 0x4141_4141_4141_4141
        let kept: UInt64 = count == 8 ? ~0 : (1 << UInt64(count * 8)) &- 1
        return hasC0OrDelete((word.littleEndian & kept) | (letters & ~kept))
    }

    /// Whether one of eight bytes is below 0x20 or is 0x7F.
    private static func hasC0OrDelete(_ word: UInt64) -> Bool {
        ByteWord.hasByte(below: 0x20, in: word) || ByteWord.hasByte(0x7F, in: word)
    }
}
