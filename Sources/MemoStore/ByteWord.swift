/// Tests of eight bytes at once, loaded as one word, for the loops that skip plain bytes
/// eight at a time (the UTF-8 check, JSON strings read and written): a byte below n sets its
/// high bit in (word - n) & ~word (n up to 0x80), and a byte equal to c is one below 1 in
/// word ^ c. A borrow can set a high bit only above a byte that is below n, so the answer is
/// exact for the word.
package enum ByteWord {
    private static let ones: UInt64 = 0x0101_0101_0101_0101
    private static let highBits: UInt64 = 0x8080_8080_8080_8080

    /// Whether one of the eight bytes of `word` is below `n` (at most 0x80).
    package static func hasByte(below n: UInt8, in word: UInt64) -> Bool {
        (word &- ones &* UInt64(n)) & ~word & highBits != 0
    }

    /// Whether one of the eight bytes of `word` is `byte`.
    package static func hasByte(_ byte: UInt8, in word: UInt64) -> Bool {
        hasByte(below: 1, in: word ^ (ones &* UInt64(byte)))
    }
}
