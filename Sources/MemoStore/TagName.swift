/// Tag names: letters (with their combining marks), digits, `_` and `-`, case-insensitive.
/// Every name, typed or found inline, is stored in one form: `folded`.
///
/// Changing the rule needs a migration that tags again if stored tags must follow; version
/// 2's backfill keeps a frozen copy of the rule of its day (`Version2TagRule`), so a change
/// here cannot change it.
package enum TagName {
    /// The stored form of a tag name given by a user, or an error quoting what they typed.
    package static func normalize(_ name: String) throws(StoreError) -> String {
        let trimmed = afterAt(name) ?? name
        let folded = fold(trimmed)
        guard !folded.isEmpty, folded.unicodeScalars.allSatisfy(isTagScalar) else {
            throw .invalidTag(name)
        }
        return folded
    }

    /// The one stored form of a name: lower case in Unicode's canonical composition (NFC),
    /// so `@Café` typed precomposed or decomposed, and `İstanbul` given as `--tag` or inline,
    /// are each one tag. Folding a folded name changes nothing.
    package static func fold(_ name: String) -> String {
        composed(composed(name).lowercased())
    }

    /// The canonical composition (NFC) of `text`, by the standard library's normaliser: the
    /// one `String` uses for equality (Foundation's `precomposedStringWithCanonicalMapping`).
    private static func composed(_ text: String) -> String {
        String(decoding: text._nfcCodeUnits, as: UTF8.self)
    }

    /// What follows a leading `@`, or nil. The `@` is a scalar: a name may start with a mark,
    /// which makes one character with it (`@́x`).
    package static func afterAt(_ text: String) -> String? {
        guard text.unicodeScalars.first == "@" else { return nil }
        return String(text.unicodeScalars.dropFirst())
    }

    /// Tag names as `tag_names` and `group_concat(name, ' ')` write them, one space apart:
    /// split at the spaces' bytes, since a space can make one character with the mark that
    /// starts the next name (or with the end of the previous one: `xൎ y`).
    package static func names(spaceSeparated text: String) -> [String] {
        text.utf8.split(separator: 0x20).map { String(decoding: $0, as: UTF8.self) }
    }

    /// Every inline `@word` in `text`, folded: an `@` at the start of a word followed by
    /// letters, digits, `_` or `-`. An `@` inside a word (an e-mail address) is not a tag.
    package static func inlineTags(in text: String) -> [String] {
        inlineTagPlaces(in: text).map(\.name)
    }

    /// Every inline tag of `text` with where it stands: the scalars of its name, after the
    /// `@` (the one rule `inlineTags` reads names by, and `renaming` rewrites them by).
    static func inlineTagPlaces(in text: String) -> [(name: String, range: Range<String.Index>)] {
        var places: [(name: String, range: Range<String.Index>)] = []
        let scalars = text.unicodeScalars
        // A tag starts at an `@`, so the text's bytes are searched for one, and only the
        // scalars around it read (most memos hold none).
        var from = text.startIndex
        while let at = UTF8Bytes.firstIndex(in: text, from: from, where: { $0 == UInt8(ascii: "@") }) {
            let start = scalars.index(after: at)
            var end = start
            if at == scalars.startIndex || startsWord(scalars[scalars.index(before: at)]) {
                while end < scalars.endIndex, isTagScalar(scalars[end]) { end = scalars.index(after: end) }
                if start < end { places.append((fold(String(scalars[start..<end])), start..<end)) }
            }
            from = end
        }
        return places
    }

    /// `text` with every inline `@old` (a whole tag word, in any case or composition) written
    /// `@new`; other words, `@older` and `a@old.com`, stay as they are.
    static func renaming(_ old: String, to new: String, in text: String) -> String {
        var result = String.UnicodeScalarView()
        var rest = text.startIndex
        for place in inlineTagPlaces(in: text) where place.name == old {
            result.append(contentsOf: text.unicodeScalars[rest..<place.range.lowerBound])
            result.append(contentsOf: new.unicodeScalars)
            rest = place.range.upperBound
        }
        result.append(contentsOf: text.unicodeScalars[rest...])
        return String(result)
    }

    /// Letters with their combining marks, digits, `_` and `-`.
    private static func isTagScalar(_ scalar: Unicode.Scalar) -> Bool {
        switch scalar.properties.generalCategory {
        case .nonspacingMark, .spacingMark, .enclosingMark: return true
        default:
            return scalar == "_" || scalar == "-" || scalar.properties.isAlphabetic
                || scalar.properties.numericType != nil
        }
    }

    /// Whether a tag may start right after `scalar`: after white space or opening punctuation.
    private static func startsWord(_ scalar: Unicode.Scalar) -> Bool {
        scalar.properties.isWhitespace || "([{\"'".unicodeScalars.contains(scalar)
    }
}
