import CSQLite

/// Names for a memo's state, usable as a version vector's key: two stores that hold the same
/// text (or the same explicit tags) without a common history, such as a store and the one an
/// export of it was imported into, give it the same name. An imported memo starts from
/// these names (`MemoTable.insert` with an origin), and so does a memo of a store that kept
/// no versions when it first syncs (`SyncStamping.adoptUnversionedMemos`): a later edit or
/// delete of the import is newer than its source's unchanged copy (docs/REFERENCE.md, Sync: stores
/// made by export and import agree).
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
        sqlite3_create_function_v2(
            connection, "memo_state_name", -1, SQLITE_UTF8 | SQLITE_DETERMINISTIC, nil,
            { context, count, arguments in
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
    /// state alone, as an import derives them (`SyncStamping.isOnlyItsStateSQL`): `text_by` and
    /// `version` name the text, `tags_version` the explicit tags (U+001F apart, NULL for none),
    /// `support` both, in the layout SQLite's JSON functions write. An export asks it of every
    /// memo, so it hashes each part once, from SQLite's bytes, and compares bytes.
    private static func registerNamesItsState(on connection: OpaquePointer) {
        sqlite3_create_function_v2(
            connection, "memo_names_its_state", 8, SQLITE_UTF8 | SQLITE_DETERMINISTIC, nil,
            { context, _, arguments in
                func bytes(_ index: Int) -> UnsafeBufferPointer<UInt8> {
                    guard let value = arguments?[index], let text = sqlite3_value_text(value) else {
                        return UnsafeBufferPointer(start: nil, count: 0)
                    }
                    return UnsafeBufferPointer(start: text, count: Int(sqlite3_value_bytes(value)))
                }
                var text = Digest()
                for index in 0..<3 {
                    if index > 0 { text.addSeparator() }
                    if let value = arguments?[index], sqlite3_value_type(value) != SQLITE_NULL {
                        text.add(bytes(index))
                    } else {
                        text.add("-")
                    }
                }
                var tags = Digest()
                tags.add(bytes(3))
                let textKey = text.keyText, tagsKey = tags.keyText
                let supportNamed =
                    text == tags
                    ? textKey.isObject(bytes(7))
                    : text.precedes(tags)
                        ? textKey.isObject(then: tagsKey, bytes(7)) : tagsKey.isObject(then: textKey, bytes(7))
                let named =
                    textKey.isWhole(bytes(4)) && textKey.isObject(bytes(5)) && tagsKey.isObject(bytes(6))
                    && supportNamed
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
            var text = text
            text.withUTF8 { bytes in
                for byte in bytes { add(byte: byte) }
            }
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
            String(unsafeUninitializedCapacity: KeyText.count) { bytes in
                for offset in 0..<KeyText.count { bytes[offset] = keyByte(at: offset) }
                return KeyText.count
            }
        }

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

        /// The key's bytes, as `key` writes them (lower-case hex only).
        var keyText: KeyText { KeyText(bytes: InlineArray(keyByte)) }
    }

    /// A key's bytes, to compare with the bytes SQLite holds: rendered once, so nothing else
    /// reads as the key.
    private struct KeyText {
        static let count = 33
        let bytes: InlineArray<33, UInt8>

        /// Whether `text` is the key.
        func isWhole(_ text: UnsafeBufferPointer<UInt8>) -> Bool {
            text.count == Self.count && stands(in: text, at: 0)
        }

        /// Whether the key's bytes stand in `text` at `start`.
        private func stands(in text: UnsafeBufferPointer<UInt8>, at start: Int) -> Bool {
            guard start + Self.count <= text.count else { return false }
            for offset in 0..<Self.count where text[start + offset] != bytes[offset] { return false }
            return true
        }

        /// Whether `text` is the JSON object SQLite writes of this key and `next` (when
        /// given), each counting 1: `{"K1":1,"K2":1}`.
        func isObject(then next: KeyText? = nil, _ text: UnsafeBufferPointer<UInt8>) -> Bool {
            let member = Self.count + 4 // "K":1
            let members = next == nil ? 1 : 2
            guard text.count == 1 + members * member + (members - 1) + 1,
                text.first == UInt8(ascii: "{"), text.last == UInt8(ascii: "}")
            else { return false }
            for index in 0..<members {
                let start = 1 + index * (member + 1)
                let afterKey = start + 1 + Self.count
                let key = index == 0 ? self : next ?? self
                guard text[start] == UInt8(ascii: "\""), key.stands(in: text, at: start + 1),
                    text[afterKey] == UInt8(ascii: "\""),
                    text[afterKey + 1] == UInt8(ascii: ":"), text[afterKey + 2] == UInt8(ascii: "1"),
                    index == members - 1 || text[start + member] == UInt8(ascii: ",")
                else { return false }
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
