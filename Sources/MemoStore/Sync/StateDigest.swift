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
        registerNamesItsState(on: connection)
    }

    /// `memo_names_its_state(content, insert_date, update_date, explicit_tags, text_by,
    /// version, tags_version, support)` in SQL: whether a memo's versions are the names of its
    /// state alone, as an import derives them (`MemoTable.isOnlyItsStateSQL`): `text_by` and
    /// `version` name the text, `tags_version` the explicit tags (U+001F apart, NULL for none),
    /// `support` both, in the layout SQLite's JSON functions write. An export asks it of every
    /// memo, so it hashes each part once, from SQLite's bytes, and compares bytes.
    private static func registerNamesItsState(on connection: OpaquePointer) {
        sqlite3_create_function_v2(connection, "memo_names_its_state", 8, SQLITE_UTF8 | SQLITE_DETERMINISTIC, nil, { context, _, arguments in
            func bytes(_ index: Int) -> UnsafeBufferPointer<UInt8> {
                guard let value = arguments?[index], let text = sqlite3_value_text(value) else { return UnsafeBufferPointer(start: nil, count: 0) }
                return UnsafeBufferPointer(start: text, count: Int(sqlite3_value_bytes(value)))
            }
            var text = Digest()
            for index in 0..<3 {
                if index > 0 { text.addSeparator() }
                if let value = arguments?[index], sqlite3_value_type(value) != SQLITE_NULL { text.add(bytes(index)) } else { text.add("-") }
            }
            var tags = Digest()
            tags.add(bytes(3))
            let supportNamed = text == tags ? text.isObject(bytes(7))
                : text.precedes(tags) ? text.isObject(then: tags, bytes(7)) : tags.isObject(then: text, bytes(7))
            let named = text.isKey(bytes(4)) && text.isObject(bytes(5)) && tags.isObject(bytes(6)) && supportNamed
            sqlite3_result_int(context, named ? 1 : 0)
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
    private struct Digest: Equatable {
        private var first = FNV1a.standardSeed, second: UInt64 = 0x84222325cbf29ce4

        mutating func addSeparator() {
            add(byte: 0x1F)
        }

        mutating func add(_ text: String) {
            for byte in text.utf8 { add(byte: byte) }
        }

        /// Text from SQLite, read as Swift reads it: bytes that are not UTF-8 count as U+FFFD.
        mutating func add(_ bytes: UnsafeBufferPointer<UInt8>) {
            guard UTF8Bytes.isValid(UnsafeRawBufferPointer(bytes)) else {
                return add(String(decoding: bytes, as: UTF8.self))
            }
            for byte in bytes { add(byte: byte) }
        }

        private mutating func add(byte: UInt8) {
            first = (first ^ UInt64(byte)) &* FNV1a.prime
            second = (second ^ UInt64(byte)) &* FNV1a.prime
        }

        /// The key: `~` and the two hashes in 32 lower-case hex digits.
        var key: String {
            String(decoding: (0..<Self.keyLength).map(keyByte), as: UTF8.self)
        }

        private static let keyLength = 33

        private func keyByte(at offset: Int) -> UInt8 {
            guard offset > 0 else { return UInt8(ascii: "~") }
            let value = offset <= 16 ? first : second
            let nibble = UInt8(truncatingIfNeeded: value >> UInt64(4 * (15 - (offset - 1) % 16)) & 0xF)
            return HexDigit.lowerCase(nibble)
        }

        /// Whether the key sorts before `other`'s, as SQLite compares text (hex digits sort
        /// as the numbers they write).
        func precedes(_ other: Digest) -> Bool {
            (first, second) < (other.first, other.second)
        }

        /// Whether `bytes` are the key.
        func isKey(_ bytes: UnsafeBufferPointer<UInt8>) -> Bool {
            bytes.count == Self.keyLength && isKey(bytes, at: 0)
        }

        /// Whether the key's bytes stand at `start`: compared with the key as `key` writes it
        /// (lower-case hex only), so nothing else reads as a key.
        private func isKey(_ bytes: UnsafeBufferPointer<UInt8>, at start: Int) -> Bool {
            guard start + Self.keyLength <= bytes.count else { return false }
            for offset in 0..<Self.keyLength where bytes[start + offset] != keyByte(at: offset) { return false }
            return true
        }

        /// Whether `bytes` are the JSON object SQLite writes of this key and `next` (when
        /// given), each counting 1: `{"K1":1,"K2":1}`.
        func isObject(then next: Digest? = nil, _ bytes: UnsafeBufferPointer<UInt8>) -> Bool {
            let member = Self.keyLength + 4   // "K":1
            let members = next == nil ? 1 : 2
            guard bytes.count == 1 + members * member + (members - 1) + 1,
                  bytes.first == UInt8(ascii: "{"), bytes.last == UInt8(ascii: "}") else { return false }
            for index in 0..<members {
                let start = 1 + index * (member + 1)
                let afterKey = start + 1 + Self.keyLength
                let key = index == 0 ? self : next ?? self
                guard bytes[start] == UInt8(ascii: "\""), key.isKey(bytes, at: start + 1), bytes[afterKey] == UInt8(ascii: "\""),
                      bytes[afterKey + 1] == UInt8(ascii: ":"), bytes[afterKey + 2] == UInt8(ascii: "1"),
                      index == members - 1 || bytes[start + member] == UInt8(ascii: ",") else { return false }
            }
            return true
        }
    }
}

extension SyncRecord.Live {
    /// The key of this memo's text.
    package var textDigest: String {
        StateDigest.text(content: content, insertDate: insertDate, updateDate: updateDate)
    }
}
