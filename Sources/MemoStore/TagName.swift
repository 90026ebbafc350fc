/// Tag names: letters, digits, `_` and `-`, case-insensitive and stored lower-case.
package enum TagName {
    /// The stored form of a tag name given by a user, or an error naming it.
    package static func normalize(_ name: String) throws(StoreError) -> String {
        let trimmed = name.hasPrefix("@") ? String(name.dropFirst()) : name
        guard !trimmed.isEmpty, trimmed.unicodeScalars.allSatisfy(isTagScalar) else {
            throw .invalidTag(name)
        }
        return trimmed.lowercased()
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
                if let name = current, !name.isEmpty { tags.append(String(name).lowercased()) }
                current = nil
            }
            if scalar == "@", previous.map(startsWord) ?? true {
                current = String.UnicodeScalarView()
            }
            previous = scalar
        }
        if let name = current, !name.isEmpty { tags.append(String(name).lowercased()) }
        return tags
    }

    private static func isTagScalar(_ scalar: Unicode.Scalar) -> Bool {
        scalar == "_" || scalar == "-" || scalar.properties.isAlphabetic || scalar.properties.numericType != nil
    }
}

/// Whether a tag may start right after `scalar`: after white space or opening punctuation.
private func startsWord(_ scalar: Unicode.Scalar) -> Bool {
    scalar.properties.isWhitespace || "([{\"'".unicodeScalars.contains(scalar)
}
