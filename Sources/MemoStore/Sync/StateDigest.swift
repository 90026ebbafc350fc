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
    /// SQL that gives memos their first version names them as Swift does.
    static func register(on connection: OpaquePointer) {
        sqlite3_create_function_v2(connection, "memo_state_name", -1, SQLITE_UTF8 | SQLITE_DETERMINISTIC, nil, { context, count, arguments in
            let parts = (0..<Int(count)).map { index -> String in
                guard let value = arguments?[index], let text = sqlite3_value_text(value) else { return "-" }
                return String(decoding: UnsafeBufferPointer(start: text, count: Int(sqlite3_value_bytes(value))), as: UTF8.self)
            }
            sqlite3_result_text(context, StateDigest.key(parts), -1, memo_sqlite_transient())
        }, nil, nil, nil)
    }

    /// Keys start with `~`: a store id never does.
    private static func key(_ parts: [String]) -> String {
        let joined = parts.joined(separator: "\u{1F}")
        let hash = FNV1a.hash(joined), second = FNV1a.hash(joined, seed: 0x84222325cbf29ce4)
        return "~" + hex(hash) + hex(second)
    }

    private static func hex(_ value: UInt64) -> String {
        let digits = String(value, radix: 16)
        return String(repeating: "0", count: 16 - digits.count) + digits
    }
}

extension SyncRecord.Live {
    /// The key of this memo's text.
    package var textDigest: String {
        StateDigest.text(content: content, insertDate: insertDate, updateDate: updateDate)
    }
}
