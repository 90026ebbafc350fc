/// Tag names: letters (with their combining marks), digits, `_` and `-`, case-insensitive.
/// Every name, typed or found inline, is stored in one form: `folded`.
package enum TagName {
    /// The stored form of a tag name given by a user, or an error quoting what they typed.
    package static func normalize(_ name: String) throws(StoreError) -> String {
        let trimmed = name.hasPrefix("@") ? String(name.dropFirst()) : name
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

    /// Every inline `@word` in `text`: an `@` at the start of a word followed by letters,
    /// digits, `_` or `-`. An `@` inside a word (an e-mail address) is not a tag.
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

    /// The canonical composition (NFC) of `text`, by the standard library's normaliser: the
    /// one `String` uses for equality (Foundation's `precomposedStringWithCanonicalMapping`).
    private static func composed(_ text: String) -> String {
        String(decoding: text._nfcCodeUnits, as: UTF8.self)
    }

    private static func isTagScalar(_ scalar: Unicode.Scalar) -> Bool {
        switch scalar.properties.generalCategory {
        case .nonspacingMark, .spacingMark, .enclosingMark: return true
        default: return scalar == "_" || scalar == "-" || scalar.properties.isAlphabetic || scalar.properties.numericType != nil
        }
    }
}

/// Whether a tag may start right after `scalar`: after white space or opening punctuation.
private func startsWord(_ scalar: Unicode.Scalar) -> Bool {
    scalar.properties.isWhitespace || "([{\"'".unicodeScalars.contains(scalar)
}
