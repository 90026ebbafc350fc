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
        var tags: [String] = []
        var previous: Unicode.Scalar?
        var current: String.UnicodeScalarView?
        for scalar in text.unicodeScalars {
            if current != nil {
                if isTagScalar(scalar) {
                    current?.append(scalar)
                    previous = scalar
                    continue
                }
                if let name = current, !name.isEmpty { tags.append(fold(String(name))) }
                current = nil
            }
            if scalar == "@", previous.map(startsWord) ?? true {
                current = String.UnicodeScalarView()
            }
            previous = scalar
        }
        if let name = current, !name.isEmpty { tags.append(fold(String(name))) }
        return tags
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
