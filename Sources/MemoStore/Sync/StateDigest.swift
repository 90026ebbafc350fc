import CSQLite

/// Names for a memo's state, usable as a version vector's key: two stores that hold the same
/// text (or the same explicit tags) without a common history, such as a store and the one an
/// export of it was imported into, give it the same name. An imported memo starts from
/// these names (`MemoTable.insert` with an origin), and so does a memo of a store that kept
/// no versions when it first syncs (`MemoTable.adoptUnversionedMemos`): a later edit or
/// delete of the import is newer than its source's unchanged copy (SPEC §4b: stores made by
/// export and import agree).
package enum StateDigest {
    /// The key of a text: content, insert and update dates.
    package static func text(content: String, insertDate: Int64, updateDate: Int64?) -> String {
        key([content, String(insertDate), updateDate.map(String.init) ?? "-"])
    }

    /// The key of a set of explicit tag names.
    package static func tags(_ names: [String]) -> String {
        key(names.sorted())
    }

    /// `memo_state_name(PART, ...)` in SQL: the key of its arguments as text (NULL as "-"), so
    /// SQL that gives memos their first version names them as Swift does. An export asks it
    /// twice a memo, so it hashes SQLite's bytes where they stand.
    static func register(on connection: OpaquePointer) {
        sqlite3_create_function_v2(connection, "memo_state_name", -1, SQLITE_UTF8 | SQLITE_DETERMINISTIC, nil, { context, count, arguments in
            var digest = Digest()
            for index in 0..<Int(count) {
                if index > 0 { digest.addSeparator() }
                guard let value = arguments?[index], let text = sqlite3_value_text(value) else {
                    digest.add("-")
                    continue
                }
                digest.add(UnsafeBufferPointer(start: text, count: Int(sqlite3_value_bytes(value))))
            }
            sqlite3_result_text(context, digest.key, -1, memo_sqlite_transient())
        }, nil, nil, nil)
    }

    /// Keys start with `~`: a store id never does.
    private static func key(_ parts: [String]) -> String {
        var digest = Digest()
        for (index, part) in parts.enumerated() {
            if index > 0 { digest.addSeparator() }
            digest.add(part)
        }
        return digest.key
    }

    /// Two 64-bit FNV-1a hashes of the parts joined by U+001F, taken as they come.
    private struct Digest {
        private var first = FNV1a.standardSeed, second: UInt64 = 0x84222325cbf29ce4

        mutating func addSeparator() {
            add(byte: 0x1F)
        }

        mutating func add(_ text: String) {
            for byte in text.utf8 { add(byte: byte) }
        }

        /// Text from SQLite, read as Swift reads it: bytes that are not UTF-8 count as U+FFFD.
        mutating func add(_ bytes: UnsafeBufferPointer<UInt8>) {
            guard bytes.allSatisfy({ $0 < 0x80 }) else { return add(String(decoding: bytes, as: UTF8.self)) }
            for byte in bytes { add(byte: byte) }
        }

        private mutating func add(byte: UInt8) {
            first = (first ^ UInt64(byte)) &* FNV1a.prime
            second = (second ^ UInt64(byte)) &* FNV1a.prime
        }

        var key: String {
            var bytes: [UInt8] = [UInt8(ascii: "~")]
            bytes.reserveCapacity(33)
            for value in [first, second] {
                for shift in stride(from: 60, through: 0, by: -4) {
                    let nibble = UInt8(truncatingIfNeeded: value >> UInt64(shift) & 0xF)
                    bytes.append(nibble < 10 ? UInt8(ascii: "0") + nibble : UInt8(ascii: "a") + nibble - 10)
                }
            }
            return String(decoding: bytes, as: UTF8.self)
        }
    }
}

extension SyncRecord.Live {
    /// The key of this memo's text.
    package var textDigest: String {
        StateDigest.text(content: content, insertDate: insertDate, updateDate: updateDate)
    }
}
