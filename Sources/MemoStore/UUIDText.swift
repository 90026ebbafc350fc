/// A uuid read from text in its 8-4-4-4-12 hexadecimal form, either case, as 128 bits.
/// Read by hand: Foundation's `UUID(uuidString:)` scans with `sscanf`, a tenth of an
/// import's time, and accepts nothing this does not.
package struct UUIDText: Hashable, Sendable {
    private let high: UInt64, low: UInt64

    package init?(_ text: String) {
        var text = text
        guard let uuid = text.withUTF8(Self.read) else { return nil }
        self = uuid
    }

    /// The text of a uuid as every memo store writes it, or nil when `text` is no uuid:
    /// `text` itself when it is lower case already (as memo's export writes it), so an
    /// import does not build each record's uuid a second time.
    package static func canonical(_ text: String) -> String? {
        var text = text
        let (uuid, isLowerCase) = text.withUTF8 { bytes in
            (read(bytes), !bytes.contains { $0 >= UInt8(ascii: "A") && $0 <= UInt8(ascii: "F") })
        }
        guard let uuid else { return nil }
        return isLowerCase ? text : uuid.canonical
    }

    private static func read(_ bytes: UnsafeBufferPointer<UInt8>) -> UUIDText? {
        guard bytes.count == 36 else { return nil }
        var high: UInt64 = 0, low: UInt64 = 0, digits = 0
        for index in 0..<36 {
            let byte = bytes[index]
            if index == 8 || index == 13 || index == 18 || index == 23 {
                guard byte == UInt8(ascii: "-") else { return nil }
                continue
            }
            guard let value = HexDigit.value(of: byte) else { return nil }
            if digits < 16 { high = high << 4 | UInt64(value) } else { low = low << 4 | UInt64(value) }
            digits += 1
        }
        return UUIDText(high: high, low: low)
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
