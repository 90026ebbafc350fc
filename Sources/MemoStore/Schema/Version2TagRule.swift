extension Schema {
    /// Tags the inline `@words` of every migrated memo, by the tag rule of version 2.
    static func tagInlineWordsOfAllMemos(_ database: Database) throws {
        let tag = try database.prepare(
            "INSERT INTO memo_tag(memo_id, name, inline) VALUES (?1, ?2, 1) ON CONFLICT DO NOTHING")
        try Migration.forEachMemo(in: database) { id, content in
            for name in Version2TagRule.inlineTags(in: content) { try tag.run([.integer(id), .text(name)]) }
        }
    }
}

/// The tag rule of version 2's backfill, frozen, and reached from nothing else: what an
/// inline `@word` is and the one form a name is stored in. The live rule is `TagName`'s; a
/// change of it comes with a migration that tags again if stored tags must follow, never a
/// change here. (Frozen as it stood once tags were NFC and case-folded; builds before that
/// lowercased only, and kept combining marks out of tags.)
private enum Version2TagRule {
    /// Every inline `@word` of `text`, folded: an `@` first in the text or after white space
    /// or one of `( [ { " '`, then the longest run of tag characters after it, if any.
    static func inlineTags(in text: String) -> [String] {
        let scalars = Array(text.unicodeScalars)
        return scalars.indices.compactMap { at in
            guard scalars[at] == "@",
                at == 0 || scalars[at - 1].properties.isWhitespace || wordOpeners.contains(scalars[at - 1])
            else { return nil }
            let name = scalars[(at + 1)...].prefix(while: isTagCharacter)
            return name.isEmpty ? nil : stored(String(String.UnicodeScalarView(name)))
        }
    }

    private static let wordOpeners: Set<Unicode.Scalar> = ["(", "[", "{", "\"", "'"]

    /// A name lower case in Unicode's canonical composition (NFC), composed before and after.
    private static func stored(_ name: String) -> String {
        let nfc = { (text: String) in String(decoding: text._nfcCodeUnits, as: UTF8.self) }
        return nfc(nfc(name).lowercased())
    }

    /// Letters, combining marks, digits, `_` and `-`.
    private static func isTagCharacter(_ scalar: Unicode.Scalar) -> Bool {
        markCategories.contains(scalar.properties.generalCategory) || "_-".unicodeScalars.contains(scalar)
            || scalar.properties.isAlphabetic || scalar.properties.numericType != nil
    }

    private static let markCategories: Set<Unicode.GeneralCategory> = [.nonspacingMark, .spacingMark, .enclosingMark]
}
