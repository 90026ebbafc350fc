extension Schema {
    /// Writes every memo's `word_count` by the word rule of version 12 (a memo without words
    /// keeps the column's 0).
    static func countTheWordsOfEveryMemo(_ database: Database) throws {
        let count = try database.prepare("UPDATE memo SET word_count = ?2 WHERE id = ?1")
        try Migration.forEachMemo(in: database) { id, content in
            let words = Version12WordRule.words(in: content)
            if words > 0 { try count.run([.integer(id), .integer(Int64(words))]) }
        }
    }
}

/// The word rule of version 12's backfill, frozen, and reached from nothing else: a word is a
/// run of characters between white space (Unicode's White_Space, as Unicode 16 lists it:
/// tab to carriage return, space, next line, no-break space, ogham space mark, the spaces
/// from en quad to hair space, line and paragraph separators, narrow no-break, medium
/// mathematical and ideographic spaces). The live rule is `WordCount`'s; a change of it comes
/// with a migration that counts again, never a change here.
private enum Version12WordRule {
    static func words(in text: String) -> Int {
        var words = 0, inWord = false
        for scalar in text.unicodeScalars {
            let value = scalar.value
            let isSpace =
                value <= 0x20
                ? value == 0x20 || (0x09...0x0D).contains(value)
                : value >= 0x85 && whiteSpace.contains { $0.contains(value) }
            if !isSpace && !inWord { words += 1 }
            inWord = !isSpace
        }
        return words
    }

    /// The white space above ASCII.
    private static let whiteSpace: [ClosedRange<UInt32>] = [
        0x85...0x85, 0xA0...0xA0, 0x1680...0x1680, 0x2000...0x200A, 0x2028...0x2029,
        0x202F...0x202F, 0x205F...0x205F, 0x3000...0x3000
    ]
}
