import CSQLite

/// What a memo's text must hold for a search, and the check of it: `memo_matches(content,
/// MATCH)` in SQL, where MATCH is `encoded` (bound as a parameter). The index only narrows the
/// memos a search looks at; this decides, on the folded text (`SearchText.folded`), so a
/// result contains what was typed, symbols and emoji included.
package struct SearchMatch: Sendable {
    /// Every one must be met; none of `excluded` may be found.
    let required: [SearchCondition]
    let excluded: [SearchNeedle]

    init(required: [SearchCondition], excluded: [SearchNeedle]) {
        self.required = required
        self.excluded = excluded
    }

    /// Whether `content` holds what was asked.
    package func matches(_ content: String) -> Bool {
        let folded = FoldedText(folded: SearchText.folded(content))
        return required.allSatisfy { $0.isMet(in: folded) } && !excluded.contains { $0.isFound(in: folded) }
    }

    /// The SQL argument: the required conditions as one `all`, U+001D, then the excluded
    /// needles. A condition is written before its parts: U+0001 for all, U+0002 for any,
    /// their parts, then U+0003; a needle is U+0010 (word), U+0011 (prefix) or U+0012 (fixed
    /// string), its text, then U+001F. Folded texts hold no control characters.
    var encoded: String {
        SearchCondition.all(required).encoded + "\u{1D}" + excluded.map { SearchCondition.needle($0).encoded }.joined()
    }

    init(encoded: String) {
        var scalars = encoded.unicodeScalars[...]
        if case .all(let conditions)? = SearchCondition(decoding: &scalars) {
            required = conditions
        } else {
            required = []
        }
        if scalars.first == "\u{1D}" { scalars.removeFirst() }
        var excluded: [SearchNeedle] = []
        while case .needle(let needle)? = SearchCondition(decoding: &scalars) { excluded.append(needle) }
        self.excluded = excluded
    }

    /// Registers `memo_matches` on a connection. The MATCH argument is read once per statement
    /// and kept with it (SQLite's auxiliary data), not once per row.
    static func register(on connection: OpaquePointer) {
        sqlite3_create_function_v2(
            connection, "memo_matches", 2, SQLITE_UTF8 | SQLITE_DETERMINISTIC, nil,
            { context, _, arguments in
                guard let arguments, let content = arguments[0], let spec = arguments[1] else {
                    return sqlite3_result_int(context, 0)
                }
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
        return String(
            decoding: UnsafeBufferPointer(start: bytes, count: Int(sqlite3_value_bytes(value))), as: UTF8.self)
    }

    /// A match kept as SQLite's auxiliary data, which holds a pointer.
    fileprivate final class Box {
        let match: SearchMatch
        init(_ match: SearchMatch) { self.match = match }
    }
}

/// What a memo's folded text must hold: a needle, every one of some conditions, or any one.
package indirect enum SearchCondition: Equatable, Sendable {
    case needle(SearchNeedle)
    case all([SearchCondition])
    case any([SearchCondition])

    func isMet(in folded: FoldedText) -> Bool {
        switch self {
        case .needle(let needle): needle.isFound(in: folded)
        case .all(let conditions): conditions.allSatisfy { $0.isMet(in: folded) }
        case .any(let conditions): conditions.contains { $0.isMet(in: folded) }
        }
    }

    /// Every needle it looks for.
    var needles: [SearchNeedle] {
        switch self {
        case .needle(let needle): [needle]
        case .all(let conditions), .any(let conditions): conditions.flatMap(\.needles)
        }
    }

    /// As `SearchMatch.encoded` writes it.
    var encoded: String {
        switch self {
        case .needle(let needle):
            let kind: Unicode.Scalar =
                switch needle.kind {
                case .word: "\u{10}";
                case .prefix: "\u{11}";
                case .substring: "\u{12}"
                }
            return String(kind) + needle.text + "\u{1F}"
        case .all(let conditions): return "\u{01}" + conditions.map(\.encoded).joined() + "\u{03}"
        case .any(let conditions): return "\u{02}" + conditions.map(\.encoded).joined() + "\u{03}"
        }
    }

    /// The condition `scalars` begin with, read off them; nil at an end (of a group, or of
    /// the text) or at anything else.
    init?(decoding scalars: inout Substring.UnicodeScalarView) {
        guard let marker = scalars.first else { return nil }
        switch marker {
        case "\u{01}", "\u{02}":
            scalars.removeFirst()
            var conditions: [SearchCondition] = []
            while let condition = SearchCondition(decoding: &scalars) { conditions.append(condition) }
            if scalars.first == "\u{03}" { scalars.removeFirst() }
            self = marker == "\u{01}" ? .all(conditions) : .any(conditions)
        case "\u{10}", "\u{11}", "\u{12}":
            scalars.removeFirst()
            let end = scalars.firstIndex(of: "\u{1F}") ?? scalars.endIndex
            let text = String(String.UnicodeScalarView(scalars[..<end]))
            scalars = scalars[end...].dropFirst()
            self = .needle(
                SearchNeedle(text, kind: marker == "\u{10}" ? .word : marker == "\u{11}" ? .prefix : .substring))
        default:
            return nil
        }
    }
}

extension SearchQuery {
    /// What a memo's text must hold beyond what the index tells, or nil for nothing more.
    package var match: SearchMatch? {
        required.isEmpty && excluded.isEmpty ? nil : SearchMatch(required: required, excluded: excluded)
    }
}
