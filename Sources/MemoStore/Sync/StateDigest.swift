/// Names for a memo's state, usable as a version vector's key: two stores that hold the same
/// text (or the same explicit tags) without a common history, such as a store and the one an
/// export of it was imported into, give it the same name. An imported memo starts from
/// these names (`MemoTable.insert` with an origin), so a later edit or delete of it is newer
/// than its source's unchanged copy (SPEC §4b: stores made by export and import agree).
package enum StateDigest {
    /// The key of a text: content, insert and update dates.
    package static func text(content: String, insertDate: Int64, updateDate: Int64?) -> String {
        key([content, String(insertDate), updateDate.map(String.init) ?? "-"])
    }

    /// The key of a set of explicit tag names.
    package static func tags(_ names: [String]) -> String {
        key(names.sorted())
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

    /// The key of this memo's explicit tags.
    package var tagsDigest: String {
        StateDigest.tags(tags.filter { !$0.inline }.map(\.name))
    }
}
