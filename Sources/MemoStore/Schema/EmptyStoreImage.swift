import CStoreImage

/// An empty store at the current schema version, ready made: the bytes of the file the
/// migrations make, kept in Sources/CStoreImage/EmptyStoreImage.c. A store in memory
/// (`--in-memory`, scripts, transcripts, fixtures, a stand-in) starts as a copy of it instead
/// of running every statement of the schema, which was half of a short command's work.
///
/// Generated from the migrations, never written by hand: after adding a migration, run
/// `scripts/regenerate-store-image`. Until then `EmptyStoreImageTests` fails, and a store
/// in memory is built by the migrations, as the image is of another version.
///
/// C, not Swift: a Swift array literal of some 30,000 bytes takes the compiler minutes, a C
/// array an instant, and leaving out its zero bytes (designated initializers) keeps the file
/// small and its changes readable.
enum EmptyStoreImage {
    /// The file's bytes.
    static var bytes: UnsafeRawBufferPointer {
        var size = 0
        let start = memo_empty_store_image(&size)
        return UnsafeRawBufferPointer(start: start, count: size)
    }

    /// Whether the image holds a store of `Schema.currentVersion`: the user version in its
    /// header, four bytes big-endian at offset 60.
    static var isCurrent: Bool {
        let image = bytes
        guard image.count >= 100 else { return false }
        let version = image[60..<64].reduce(0) { $0 << 8 | Int($1) }
        return version == Schema.currentVersion
    }
}
