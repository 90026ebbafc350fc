/// Tag names: letters (with their combining marks), digits, `_` and `-`, case-insensitive.
/// Every name, typed or found inline, is stored in one form: `folded`.
///
/// Today's rule is the one version 2's backfill froze (`Version2TagRule`): these delegate to
/// it, so it exists once. When the rule changes, write the new one here and leave the frozen
/// one alone.
package enum TagName {
    /// The stored form of a tag name given by a user, or an error quoting what they typed.
    package static func normalize(_ name: String) throws(StoreError) -> String {
        let trimmed = afterAt(name) ?? name
        let folded = fold(trimmed)
        guard !folded.isEmpty, folded.unicodeScalars.allSatisfy(Version2TagRule.isTagScalar) else {
            throw .invalidTag(name)
        }
        return folded
    }

    /// The one stored form of a name: lower case in Unicode's canonical composition (NFC),
    /// so `@Café` typed precomposed or decomposed, and `İstanbul` given as `--tag` or inline,
    /// are each one tag. Folding a folded name changes nothing.
    package static func fold(_ name: String) -> String {
        Version2TagRule.fold(name)
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

    /// Every inline `@word` in `text`: an `@` at the start of a word followed by letters,
    /// digits, `_` or `-`. An `@` inside a word (an e-mail address) is not a tag.
    package static func inlineTags(in text: String) -> [String] {
        Version2TagRule.inlineTags(in: text)
    }
}
