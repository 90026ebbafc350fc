/// Uuids derived from a name: importing the same source row twice finds the memo the first
/// import made, and two stores that meet the same sync conflict make the same copy. Two
/// 64-bit FNV-1a hashes make the 128 bits; the version and variant bits are set as RFC 4122
/// version 4 text requires.
package enum StableUUID {
    package static func make(from name: String) -> String {
        func fnv1a(_ seed: UInt64) -> UInt64 {
            var hash = seed
            for byte in name.utf8 {
                hash ^= UInt64(byte)
                hash = hash &* 0x100_0000_01b3
            }
            return hash
        }
        var bytes = withUnsafeBytes(of: fnv1a(0xcbf2_9ce4_8422_2325).bigEndian, Array.init)
            + withUnsafeBytes(of: fnv1a(0x84222325cbf29ce4).bigEndian, Array.init)
        bytes[6] = bytes[6] & 0x0F | 0x40
        bytes[8] = bytes[8] & 0x3F | 0x80
        let hex = bytes.map { String($0, radix: 16).count == 1 ? "0" + String($0, radix: 16) : String($0, radix: 16) }.joined()
        let parts = [hex.prefix(8), hex.dropFirst(8).prefix(4), hex.dropFirst(12).prefix(4), hex.dropFirst(16).prefix(4), hex.dropFirst(20)]
        return parts.joined(separator: "-")
    }
}
