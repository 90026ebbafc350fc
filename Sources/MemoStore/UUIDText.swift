/// A uuid read from text in its 8-4-4-4-12 hexadecimal form, either case, as 128 bits.
/// Read by hand: Foundation's `UUID(uuidString:)` scans with `sscanf`, a tenth of an
/// import's time, and accepts nothing this does not.
package struct UUIDText: Hashable, Sendable {
    private let high: UInt64, low: UInt64

    package init?(_ text: String) {
        var high: UInt64 = 0, low: UInt64 = 0, digits = 0, index = 0
        for byte in text.utf8 {
            defer { index += 1 }
            if index == 8 || index == 13 || index == 18 || index == 23 {
                guard byte == UInt8(ascii: "-") else { return nil }
                continue
            }
            guard let value = HexDigit.value(of: byte) else { return nil }
            if digits < 16 { high = high << 4 | UInt64(value) } else { low = low << 4 | UInt64(value) }
            digits += 1
        }
        guard index == 36 else { return nil }
        self.high = high
        self.low = low
    }

    /// The uuid of these 128 bits, the first 64 in `high`.
    package init(high: UInt64, low: UInt64) {
        self.high = high
        self.low = low
    }

    /// A random version-4 uuid (RFC 4122: 122 random bits, the version and the variant set),
    /// from the system's generator (`getrandom`). Foundation's `UUID()` opens and reads
    /// `/dev/urandom` for each one, three system calls a memo the server or an import adds.
    package static func random() -> UUIDText {
        var generator = SystemRandomNumberGenerator()
        let high = generator.next() as UInt64, low = generator.next() as UInt64
        return UUIDText(high: high & ~0xF000 | 0x4000, low: low & 0x3FFF_FFFF_FFFF_FFFF | 0x8000_0000_0000_0000)
    }

    /// Lower case, as every memo store writes uuids.
    package var canonical: String {
        var bytes: [UInt8] = []
        bytes.reserveCapacity(36)
        for position in 0..<32 {
            if position == 8 || position == 12 || position == 16 || position == 20 { bytes.append(UInt8(ascii: "-")) }
            let nibble = UInt8(
                truncatingIfNeeded: (position < 16 ? high >> (60 - 4 * position) : low >> (124 - 4 * position)) & 0xF)
            bytes.append(HexDigit.lowerCase(nibble))
        }
        return String(decoding: bytes, as: UTF8.self)
    }
}
