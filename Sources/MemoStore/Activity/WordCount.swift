/// What counts as a word in `stats`: a run of characters between white space (Unicode's
/// White_Space: spaces, tabs, line breaks, no-break and ideographic spaces), as `wc -w`
/// counts them. A run of CJK text without spaces is one word. `MemoTable` counts each text
/// as it writes it (`word_count`), from its UTF-8 bytes, eight ASCII bytes at a time: an
/// import of a million memos counts them all. A migration that fills `word_count` counts
/// by a frozen copy of the rule of its day (`Version12WordRule`).
enum WordCount {
    static func words(in bytes: UnsafeBufferPointer<UInt8>) -> Int {
        var words = 0, inWord = false, index = 0
        while index < bytes.count {
            if index + 8 <= bytes.count, let base = bytes.baseAddress {
                let chunk = UInt64(littleEndian: UnsafeRawPointer(base + index).loadUnaligned(as: UInt64.self))
                if chunk & Self.highBits == 0 {
                    words += asciiWordStarts(chunk, inWord: &inWord)
                    index += 8
                    continue
                }
            }
            let byte = bytes[index]
            // ASCII, most of most texts, without a call: space, or tab to carriage return.
            // Beyond ASCII only a character starting with C2, E1, E2 or E3 may be white space;
            // any other is passed over whole, its continuation bytes in a tight loop.
            let spaceLength =
                byte < 0x80
                ? (byte == 0x20 || byte &- 0x09 < 5 ? 1 : 0)
                : byte == 0xC2 || (0xE1...0xE3).contains(byte) ? whiteSpaceLength(bytes, at: index) : 0
            if spaceLength > 0 {
                inWord = false
                index += spaceLength
                continue
            }
            if !inWord { words += 1 }
            inWord = true
            index += 1
            while index < bytes.count, bytes[index] & 0xC0 == 0x80 { index += 1 }
        }
        return words
    }

    private static let highBits: UInt64 = 0x8080_8080_8080_8080

    /// The words that start in eight ASCII bytes, read at once (one bit a byte, the high one):
    /// a word starts at a byte that is not white space after one that is (the first byte
    /// after white space when `inWord` is false). Each byte below 0x80 is compared without a
    /// borrow into its neighbour: 0x8D − b has its high bit set when b ≤ 0x0D, 0x88 − b when
    /// b ≤ 0x08 (tab to carriage return lie between), and a space is found as a zero byte of `chunk ^ 0x20…` by adding 0x7F to its
    /// low seven bits. `inWord` is left as the last byte leaves it.
    private static func asciiWordStarts(_ chunk: UInt64, inWord: inout Bool) -> Int {
        let lowBits: UInt64 = 0x7F7F_7F7F_7F7F_7F7F
        let spaces = chunk ^ 0x2020_2020_2020_2020
        let isSpace = ~(((spaces & lowBits) &+ lowBits) | spaces | lowBits)
        let isControlSpace = (0x8D8D_8D8D_8D8D_8D8D &- chunk) & ~(0x8888_8888_8888_8888 &- chunk) & highBits
        let white = isSpace | isControlSpace
        let other = ~white & highBits
        let starts = other & ((white << 8) | (inWord ? 0 : 0x80))
        inWord = other >> 63 != 0
        return starts.nonzeroBitCount
    }

    /// The length in bytes of the white-space character beyond ASCII starting at `index`, or
    /// 0 when none does there.
    private static func whiteSpaceLength(_ bytes: UnsafeBufferPointer<UInt8>, at index: Int) -> Int {
        let byte = bytes[index]
        func next(_ offset: Int) -> UInt8 { index + offset < bytes.count ? bytes[index + offset] : 0 }
        switch byte {
        case 0xC2: // U+0085 next line, U+00A0 no-break space
            return next(1) == 0x85 || next(1) == 0xA0 ? 2 : 0
        case 0xE1: // U+1680 ogham space mark
            return next(1) == 0x9A && next(2) == 0x80 ? 3 : 0
        case 0xE2: // U+2000–200A, U+2028, U+2029, U+202F, U+205F
            let (second, third) = (next(1), next(2))
            if second == 0x80, (0x80...0x8A).contains(third) || [0xA8, 0xA9, 0xAF].contains(third) { return 3 }
            return second == 0x81 && third == 0x9F ? 3 : 0
        case 0xE3: // U+3000 ideographic space
            return next(1) == 0x80 && next(2) == 0x80 ? 3 : 0
        default:
            return 0
        }
    }
}
