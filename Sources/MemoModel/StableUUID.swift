/// Uuids derived from a name: importing the same source row twice finds the memo the first
/// import made, and two stores that meet the same sync conflict make the same copy. Two
/// 64-bit FNV-1a hashes make the 128 bits, marked as RFC 9562 version 8 (custom: neither
/// random like version 4 nor the SHA-1 of version 5) with the RFC's variant bits.
package enum StableUUID {
    package static func make(from name: String) -> String {
        format(hashing: name, versionBits: 0x80)
    }

    /// The uuid memo 0.x derived from `name`, wrongly marked version 4: a Core Data import
    /// finds the memos an import made then by it.
    package static func legacyVersion4(from name: String) -> String {
        format(hashing: name, versionBits: 0x40)
    }

    private static func format(hashing name: String, versionBits: UInt8) -> String {
        var bytes =
            withUnsafeBytes(of: FNV1a.hash(name).bigEndian, Array.init)
            + withUnsafeBytes(of: FNV1a.hash(name, seed: 0x84222325cbf29ce4).bigEndian, Array.init)
        bytes[6] = bytes[6] & 0x0F | versionBits
        bytes[8] = bytes[8] & 0x3F | 0x80
        let hex = bytes.map { String($0, radix: 16).count == 1 ? "0" + String($0, radix: 16) : String($0, radix: 16) }
            .joined()
        let parts = [
            hex.prefix(8), hex.dropFirst(8).prefix(4), hex.dropFirst(12).prefix(4), hex.dropFirst(16).prefix(4),
            hex.dropFirst(20)
        ]
        return parts.joined(separator: "-")
    }
}
