import CSQLite

/// What a memo's text must hold for a search, and the check of it: `memo_matches(content,
/// SPEC)` in SQL, where SPEC is `encoded` (bound as a parameter). The index only narrows the
/// memos a search looks at; this decides, on the folded text (`SearchText.folded`), so a
/// result contains what was typed, symbols and emoji included.
package struct SearchMatch: Sendable {
    /// From each clause one of its needles must be found; none of `excluded` may be.
    let required: [[SearchNeedle]]
    let excluded: [SearchNeedle]

    init(required: [[SearchNeedle]], excluded: [SearchNeedle]) {
        self.required = required
        self.excluded = excluded
    }

    /// Whether `content` holds what was asked.
    package func matches(_ content: String) -> Bool {
        let folded = FoldedText(folded: SearchText.folded(content))
        return required.allSatisfy { clause in clause.contains { $0.isFound(in: folded) } }
            && !excluded.contains { $0.isFound(in: folded) }
    }

    /// The SQL argument: clauses apart by U+001E, a clause's needles by U+001F, then U+001D and
    /// the excluded needles; a prefix's text starts with U+001C (folded texts hold no such
    /// control characters).
    var encoded: String {
        func encoded(_ needles: [SearchNeedle]) -> String {
            needles.map { ($0.isPrefix ? "\u{1C}" : "") + $0.text }.joined(separator: "\u{1F}")
        }
        return required.map(encoded).joined(separator: "\u{1E}") + "\u{1D}" + encoded(excluded)
    }

    init(encoded: String) {
        func needles(_ text: Substring) -> [SearchNeedle] {
            text.split(separator: "\u{1F}").map { $0.first == "\u{1C}" ? SearchNeedle(String($0.dropFirst()), isPrefix: true)
                                                                      : SearchNeedle(String($0), isPrefix: false) }
        }
        let parts = encoded.split(separator: "\u{1D}", omittingEmptySubsequences: false)
        required = parts[0].split(separator: "\u{1E}").map(needles)
        excluded = parts.count > 1 ? needles(parts[1]) : []
    }

    /// Registers `memo_matches` on a connection. The SPEC argument is read once per statement
    /// and kept with it (SQLite's auxiliary data), not once per row.
    static func register(on connection: OpaquePointer) {
        sqlite3_create_function_v2(connection, "memo_matches", 2, SQLITE_UTF8 | SQLITE_DETERMINISTIC, nil, { context, _, arguments in
            guard let arguments, let content = arguments[0], let spec = arguments[1] else { return sqlite3_result_int(context, 0) }
            let match: SearchMatch
            if let kept = sqlite3_get_auxdata(context, 1) {
                match = Unmanaged<SearchMatch.Box>.fromOpaque(kept).takeUnretainedValue().match
            } else {
                match = SearchMatch(encoded: SearchMatch.text(of: spec))
                sqlite3_set_auxdata(context, 1, Unmanaged.passRetained(SearchMatch.Box(match)).toOpaque()) { box in
                    if let box { Unmanaged<SearchMatch.Box>.fromOpaque(box).release() }
                }
            }
            sqlite3_result_int(context, match.matches(SearchMatch.text(of: content)) ? 1 : 0)
        }, nil, nil, nil)
    }

    fileprivate static func text(of value: OpaquePointer) -> String {
        guard let bytes = sqlite3_value_text(value) else { return "" }
        return String(decoding: UnsafeBufferPointer(start: bytes, count: Int(sqlite3_value_bytes(value))), as: UTF8.self)
    }

    /// A match kept as SQLite's auxiliary data, which holds a pointer.
    fileprivate final class Box {
        let match: SearchMatch
        init(_ match: SearchMatch) { self.match = match }
    }
}

extension SearchQuery {
    /// What a memo's text must hold beyond what the index tells, or nil for nothing more.
    package var match: SearchMatch? {
        required.isEmpty && excluded.isEmpty ? nil : SearchMatch(required: required, excluded: excluded)
    }
}
