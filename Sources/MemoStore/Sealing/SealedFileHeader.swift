import CSodium

/// The first bytes of a sealed (encrypted) store file: what opens it but the passphrase.
/// docs/ENCRYPTION.md describes the layout; all integers are little-endian.
///
///     0  magic "memoSEAL"           8   format version (u32)    12  key algorithm (u32)
///     16 Argon2id opslimit (u64)    24  memlimit (u64)          32  salt (16 bytes)
///     48 chunk size (u32)           52  plaintext length (u64)  60  stream header (24 bytes)
///
/// The chunks of the stream follow. Bytes 0–59 are the first chunk's additional data, so
/// the stream's authentication covers every field; the salt and limits are the key's too.
struct SealedFileHeader: Equatable {
    static let magic: [UInt8] = Array("memoSEAL".utf8)
    static let formatVersion: UInt32 = 1
    /// The bytes before the stream header: the first chunk's additional data.
    static let authenticatedCount = 60
    static let count = authenticatedCount + streamHeaderCount
    static let streamHeaderCount = Int(crypto_secretstream_xchacha20poly1305_HEADERBYTES)
    static let saltCount = Int(crypto_pwhash_SALTBYTES)
    /// What each chunk of ciphertext adds to its plaintext (tag and authenticator).
    static let chunkOverhead = Int(crypto_secretstream_xchacha20poly1305_ABYTES)

    /// Argon2id at twice the memory of libsodium's interactive limits: a key takes about
    /// 0.35 s here (docs/ENCRYPTION.md), which each opening of the store pays once.
    static let writtenOpsLimit = UInt64(crypto_pwhash_OPSLIMIT_INTERACTIVE)
    static let writtenMemLimit = UInt64(crypto_pwhash_MEMLIMIT_MODERATE)
    static let writtenChunkSize: UInt32 = 65536

    var algorithm = UInt32(crypto_pwhash_ALG_ARGON2ID13)
    var opsLimit = writtenOpsLimit
    var memLimit = writtenMemLimit
    var salt: [UInt8]
    var chunkSize = writtenChunkSize
    var plaintextCount: UInt64
    var streamHeader = [UInt8](repeating: 0, count: streamHeaderCount)

    /// A header for a new key: a fresh random salt.
    init(plaintextCount: Int) {
        var salt = [UInt8](repeating: 0, count: Self.saltCount)
        randombytes_buf(&salt, salt.count)
        self.salt = salt
        self.plaintextCount = UInt64(plaintextCount)
    }

    /// Whether `bytes` begin as a sealed store file does.
    static func hasMagic(_ bytes: some Collection<UInt8>) -> Bool {
        bytes.starts(with: magic)
    }

    /// The header at the start of `bytes`, or nil when they are not one memo can open: not
    /// sealed, another format version or algorithm, or limits outside what memo writes or
    /// would ever ask of a machine (a damaged or forged header must not make it spend
    /// gigabytes of memory deriving a key that then fails).
    init?(_ bytes: UnsafeRawBufferPointer) {
        guard bytes.count >= Self.count, Self.hasMagic(bytes),
            bytes.loadLittleEndian(UInt32.self, at: 8) == Self.formatVersion
        else { return nil }
        algorithm = bytes.loadLittleEndian(UInt32.self, at: 12)
        opsLimit = bytes.loadLittleEndian(UInt64.self, at: 16)
        memLimit = bytes.loadLittleEndian(UInt64.self, at: 24)
        salt = Array(bytes[32..<48])
        chunkSize = bytes.loadLittleEndian(UInt32.self, at: 48)
        plaintextCount = bytes.loadLittleEndian(UInt64.self, at: 52)
        streamHeader = Array(bytes[Self.authenticatedCount..<Self.count])
        guard algorithm == UInt32(crypto_pwhash_ALG_ARGON2ID13),
            (1...16).contains(opsLimit), (8192...(4 << 30)).contains(memLimit),
            (4096...(16 << 20)).contains(chunkSize), plaintextCount > 0
        else { return nil }
    }

    /// How many chunks the stream has: the last one may be shorter than the others.
    var chunkCount: UInt64 { (plaintextCount + UInt64(chunkSize) - 1) / UInt64(chunkSize) }

    /// The length of the whole file this header describes.
    var fileCount: UInt64 { UInt64(Self.count) + plaintextCount + chunkCount * UInt64(Self.chunkOverhead) }

    /// The header's bytes, the stream header last.
    var bytes: [UInt8] {
        var bytes = Self.magic
        bytes.appendLittleEndian(Self.formatVersion)
        bytes.appendLittleEndian(algorithm)
        bytes.appendLittleEndian(opsLimit)
        bytes.appendLittleEndian(memLimit)
        bytes += salt
        bytes.appendLittleEndian(chunkSize)
        bytes.appendLittleEndian(plaintextCount)
        return bytes + streamHeader
    }
}

extension UnsafeRawBufferPointer {
    fileprivate func loadLittleEndian<Integer: FixedWidthInteger>(_: Integer.Type, at offset: Int) -> Integer {
        Integer(littleEndian: loadUnaligned(fromByteOffset: offset, as: Integer.self))
    }
}

extension [UInt8] {
    fileprivate mutating func appendLittleEndian<Integer: FixedWidthInteger>(_ value: Integer) {
        Swift.withUnsafeBytes(of: value.littleEndian) { append(contentsOf: $0) }
    }
}
