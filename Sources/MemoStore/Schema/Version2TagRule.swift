/// The tag rule of version 2's backfill, frozen: what an inline `@word` is and the one form
/// a name is stored in. `TagName` delegates to it while the live rule is the same; a change
/// of the live rule is written in `TagName`, never here, with a migration that re-tags if
/// stored tags must follow. (Frozen as it stands since tags are NFC and case-folded; builds
/// before that lowercased only, and kept combining marks out of tags.)
enum Version2TagRule {
    /// Lower case in Unicode's canonical composition (NFC). Folding a folded name changes
    /// nothing.
    static func fold(_ name: String) -> String {
        composed(composed(name).lowercased())
    }

    /// The canonical composition (NFC) of `text`, by the standard library's normaliser: the
    /// one `String` uses for equality (Foundation's `precomposedStringWithCanonicalMapping`).
    private static func composed(_ text: String) -> String {
        String(decoding: text._nfcCodeUnits, as: UTF8.self)
    }

    /// Every inline `@word` in `text`, folded: an `@` at the start of a word followed by
    /// letters, digits, `_` or `-`. An `@` inside a word (an e-mail address) is not a tag.
    static func inlineTags(in text: String) -> [String] {
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
    static func isTagScalar(_ scalar: Unicode.Scalar) -> Bool {
        switch scalar.properties.generalCategory {
        case .nonspacingMark, .spacingMark, .enclosingMark: return true
        default: return scalar == "_" || scalar == "-" || scalar.properties.isAlphabetic || scalar.properties.numericType != nil
        }
    }

    /// Whether a tag may start right after `scalar`: after white space or opening punctuation.
    private static func startsWord(_ scalar: Unicode.Scalar) -> Bool {
        scalar.properties.isWhitespace || "([{\"'".unicodeScalars.contains(scalar)
    }
}
