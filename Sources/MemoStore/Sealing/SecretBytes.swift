import CSodium

/// Bytes that must not outlive their use nor reach the disk: a passphrase, a key. They live
/// in libsodium's guarded allocation (`sodium_malloc`: locked in memory, so never swapped
/// out, with guard pages around it) and are wiped when released (`sodium_free` zeroes them).
package final class SecretBytes {
    package let count: Int
    private let start: UnsafeMutableRawPointer

    /// `count` zero bytes, or nil when the memory cannot be had (or locked).
    package init?(count: Int) {
        guard Sodium.isReady, let start = sodium_malloc(max(count, 1)) else { return nil }
        sodium_memzero(start, max(count, 1))
        self.count = count
        self.start = start
    }

    deinit {
        sodium_free(start)
    }

    package func withUnsafeBytes<Result>(_ body: (UnsafeRawBufferPointer) throws -> Result) rethrows -> Result {
        try body(UnsafeRawBufferPointer(start: start, count: count))
    }

    package func withUnsafeMutableBytes<Result>(
        _ body: (UnsafeMutableRawBufferPointer) throws -> Result
    ) rethrows -> Result {
        try body(UnsafeMutableRawBufferPointer(start: start, count: count))
    }

    /// The first `count` bytes, copied into secret bytes of their own.
    package func prefix(_ count: Int) -> SecretBytes? {
        guard let copy = SecretBytes(count: min(count, self.count)) else { return nil }
        copy.start.copyMemory(from: start, byteCount: copy.count)
        return copy
    }

    /// Whether both hold the same bytes, compared in constant time.
    package func isEqual(to other: SecretBytes) -> Bool {
        count == other.count && sodium_memcmp(start, other.start, count) == 0
    }
}

/// libsodium, set up once for the process (`sodium_init`, which picks its fastest code).
enum Sodium {
    static let isReady: Bool = sodium_init() >= 0
}
