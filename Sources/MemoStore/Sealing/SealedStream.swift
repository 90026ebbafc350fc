import CSQLite
import CSodium
import Glibc

/// The sealed stream of a store's image: libsodium's secretstream (XChaCha20-Poly1305), a
/// chunk of `chunkSize` bytes at a time, the last chunk tagged final, the header's fields as
/// the first chunk's additional data (`SealedFileHeader`).
enum SealedStream {
    /// The key for `header`'s salt and limits: Argon2id over the passphrase. Nil when the
    /// machine cannot spare the memory the limits ask.
    static func key(for passphrase: SecretBytes, _ header: SealedFileHeader) -> SecretBytes? {
        guard let key = SecretBytes(count: Int(crypto_secretstream_xchacha20poly1305_KEYBYTES)) else { return nil }
        let derived = key.withUnsafeMutableBytes { key in
            passphrase.withUnsafeBytes { passphrase in
                crypto_pwhash(
                    key.baseAddress!.assumingMemoryBound(to: UInt8.self), UInt64(key.count),
                    passphrase.baseAddress!.assumingMemoryBound(to: CChar.self), UInt64(passphrase.count),
                    header.salt, header.opsLimit, Int(header.memLimit), Int32(header.algorithm))
            }
        }
        return derived == 0 ? key : nil
    }

    /// Writes the sealed file of `image` to `descriptor`: `header` (its salt and limits, the
    /// key's) with a fresh stream header, then the chunks. Throws the `errno` of a failed write.
    static func write(
        _ image: UnsafeRawBufferPointer, header: SealedFileHeader, key: SecretBytes, to descriptor: Int32
    ) throws(SealingFailure) {
        var header = header
        header.plaintextCount = UInt64(image.count)
        var state = crypto_secretstream_xchacha20poly1305_state()
        key.withUnsafeBytes { key in
            _ = crypto_secretstream_xchacha20poly1305_init_push(
                &state, &header.streamHeader, key.baseAddress!.assumingMemoryBound(to: UInt8.self))
        }
        defer { sodium_memzero(&state, MemoryLayout.size(ofValue: state)) }
        let headerBytes = header.bytes
        if let failure = headerBytes.withUnsafeBytes({ writeAll($0, to: descriptor) }) {
            throw SealingFailure(errno: failure)
        }
        let chunkSize = Int(header.chunkSize)
        var sealed = [UInt8](repeating: 0, count: chunkSize + SealedFileHeader.chunkOverhead)
        var offset = 0
        while offset < image.count {
            let chunk = UnsafeRawBufferPointer(rebasing: image[offset..<min(offset + chunkSize, image.count)])
            let isLast = offset + chunk.count == image.count
            let additional = offset == 0 ? Array(headerBytes[..<SealedFileHeader.authenticatedCount]) : []
            var sealedCount: UInt64 = 0
            _ = crypto_secretstream_xchacha20poly1305_push(
                &state, &sealed, &sealedCount, chunk.baseAddress!.assumingMemoryBound(to: UInt8.self),
                UInt64(chunk.count), additional, UInt64(additional.count),
                UInt8(
                    isLast
                        ? crypto_secretstream_xchacha20poly1305_TAG_FINAL
                        : crypto_secretstream_xchacha20poly1305_TAG_MESSAGE))
            let failure = sealed.withUnsafeBytes {
                writeAll(UnsafeRawBufferPointer(rebasing: $0[..<Int(sealedCount)]), to: descriptor)
            }
            if let failure { throw SealingFailure(errno: failure) }
            offset += chunk.count
        }
    }

    /// The image sealed in the file open at `descriptor`, whose first bytes are `header`, in
    /// memory from `sqlite3_malloc64` (for `Database.load`); the caller has checked the file's
    /// length against the header. Nil when any chunk fails to
    /// open: a wrong key, or a file damaged, cut short, lengthened or put together from
    /// others; nothing of a stream that failed is kept.
    static func read(
        from descriptor: Int32, header: SealedFileHeader, headerBytes: [UInt8], key: SecretBytes
    ) -> (image: UnsafeMutableRawPointer, count: Int)? {
        guard let image = sqlite3_malloc64(header.plaintextCount) else { return nil }
        var state = crypto_secretstream_xchacha20poly1305_state()
        defer { sodium_memzero(&state, MemoryLayout.size(ofValue: state)) }
        let started = key.withUnsafeBytes { key in
            crypto_secretstream_xchacha20poly1305_init_pull(
                &state, header.streamHeader, key.baseAddress!.assumingMemoryBound(to: UInt8.self))
        }
        let chunkSize = Int(header.chunkSize), total = Int(header.plaintextCount)
        var sealed = [UInt8](repeating: 0, count: chunkSize + SealedFileHeader.chunkOverhead)
        var offset = 0
        var opened = started == 0
        while opened, offset < total {
            let count = min(chunkSize, total - offset)
            let sealedCount = count + SealedFileHeader.chunkOverhead
            let additional = offset == 0 ? Array(headerBytes[..<SealedFileHeader.authenticatedCount]) : []
            var openedCount: UInt64 = 0
            var tag: UInt8 = 0
            opened =
                readAll(
                    into: &sealed, count: sealedCount,
                    at: off_t(
                        SealedFileHeader.count + offset / chunkSize * (chunkSize + SealedFileHeader.chunkOverhead)),
                    from: descriptor)
                && crypto_secretstream_xchacha20poly1305_pull(
                    &state, (image + offset).assumingMemoryBound(to: UInt8.self), &openedCount, &tag, sealed,
                    UInt64(sealedCount), additional, UInt64(additional.count)) == 0
                && openedCount == UInt64(count)
                && (tag == UInt8(crypto_secretstream_xchacha20poly1305_TAG_FINAL)) == (offset + count == total)
            offset += count
        }
        guard opened else {
            sodium_memzero(image, total)
            sqlite3_free(image)
            return nil
        }
        return (image, total)
    }

    /// Writes all of `bytes`; the `errno` of a write that failed, else nil.
    static func writeAll(_ bytes: UnsafeRawBufferPointer, to descriptor: Int32) -> Int32? {
        var offset = 0
        while offset < bytes.count {
            let written = Glibc.write(descriptor, bytes.baseAddress! + offset, bytes.count - offset)
            if written < 0 {
                if errno == EINTR { continue }
                return errno
            }
            offset += written
        }
        return nil
    }

    private static func readAll(
        into buffer: inout [UInt8], count: Int, at offset: off_t, from descriptor: Int32
    ) -> Bool {
        buffer.withUnsafeMutableBytes { buffer in
            var done = 0
            while done < count {
                let read = pread(descriptor, buffer.baseAddress! + done, count - done, offset + off_t(done))
                if read < 0, errno == EINTR { continue }
                guard read > 0 else { return false }
                done += read
            }
            return true
        }
    }
}

/// A write of a sealed file that failed, with the system's reason.
struct SealingFailure: Error {
    let errno: Int32

    var reason: String { String(cString: strerror(errno)) }
}
