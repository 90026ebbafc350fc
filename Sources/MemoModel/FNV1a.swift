/// The 64-bit FNV-1a hash of a text's UTF-8 bytes: fast, stable across runs, machines and
/// versions (uuids and versions derived from it are stored), and not for secrets.
package enum FNV1a {
    package static let standardSeed: UInt64 = 0xcbf2_9ce4_8422_2325
    package static let prime: UInt64 = 0x100_0000_01b3

    package static func hash(_ text: String, seed: UInt64 = standardSeed) -> UInt64 {
        hash(bytes: text.utf8, seed: seed)
    }

    /// The hash of bytes, such as a text column read without making a `String` of it.
    package static func hash(bytes: some Sequence<UInt8>, seed: UInt64 = standardSeed) -> UInt64 {
        var hash = seed
        for byte in bytes {
            hash ^= UInt64(byte)
            hash = hash &* prime
        }
        return hash
    }
}
