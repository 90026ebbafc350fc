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

    package static func isValid(_ bytes: UnsafeRawBufferPointer) -> Bool {
        kind(of: bytes) != .invalid
    }

    package static func kind(of bytes: UnsafeRawBufferPointer) -> Kind {
        guard let base = bytes.baseAddress else { return .plain }
        let count = bytes.count
        var index = 0, hasControl = false
        while index < count {
            if index + 8 <= count {
                let word = base.loadUnaligned(fromByteOffset: index, as: UInt64.self)
                if word & 0x8080_8080_8080_8080 == 0 {
                    hasControl = hasControl || hasC0OrDelete(word)
                    index += 8
                    continue
                }
            }
            let lead = base.load(fromByteOffset: index, as: UInt8.self)
            if lead < 0x80 {
                hasControl = hasControl || lead < 0x20 || lead == 0x7F
                index += 1
                continue
            }
            func continuation(_ offset: Int, _ range: ClosedRange<UInt8> = 0x80...0xBF) -> Bool {
                index + offset < count && range.contains(base.load(fromByteOffset: index + offset, as: UInt8.self))
            }
            let length: Int
            switch lead {
            case 0xC2...0xDF:
                guard continuation(1) else { return .invalid }
                hasControl = hasControl || (lead == 0xC2 && base.load(fromByteOffset: index + 1, as: UInt8.self) <= 0x9F)
                length = 2
            case 0xE0: length = continuation(1, 0xA0...0xBF) && continuation(2) ? 3 : 0
            case 0xED: length = continuation(1, 0x80...0x9F) && continuation(2) ? 3 : 0
            case 0xE1...0xEF: length = continuation(1) && continuation(2) ? 3 : 0
            case 0xF0: length = continuation(1, 0x90...0xBF) && continuation(2) && continuation(3) ? 4 : 0
            case 0xF4: length = continuation(1, 0x80...0x8F) && continuation(2) && continuation(3) ? 4 : 0
            case 0xF1...0xF3: length = continuation(1) && continuation(2) && continuation(3) ? 4 : 0
            default: length = 0
            }
            guard length > 0 else { return .invalid }
            index += length
        }
        return hasControl ? .withControls : .plain
    }

    /// Whether one of eight bytes is below 0x20 or is 0x7F, in a few word operations: a byte
    /// below n sets its high bit in (word - n) & ~word (n up to 0x80).
    private static func hasC0OrDelete(_ word: UInt64) -> Bool {
        let ones: UInt64 = 0x0101_0101_0101_0101, high: UInt64 = 0x8080_8080_8080_8080
        func hasByteBelow(_ word: UInt64, _ n: UInt64) -> Bool { (word &- ones &* n) & ~word & high != 0 }
        return hasByteBelow(word, 0x20) || hasByteBelow(word ^ (ones &* 0x7F), 1)
    }
}
