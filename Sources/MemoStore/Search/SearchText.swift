@_spi(_Unicode) import Swift

/// The text the full-text index holds for a memo, and the tokens a search word becomes.
///
/// FTS5's `unicode61` tokenizer splits words at spaces and punctuation, which serves English,
/// accented Latin text (with `remove_diacritics 2`) and Cyrillic. Japanese and Chinese are
/// written without spaces, and Korean attaches particles to words (`여행을`), so there a
/// whole run of text would be one token and `旅行` or `여행` would find nothing. Runs of Han,
/// kana and Hangul are therefore indexed as overlapping pairs of characters (bigrams, the
/// classic CJK approach), plus the run's last character alone: `京都旅行` becomes
/// `京都 都旅 旅行 行`. A search word is cut the same way and matched as a phrase, so any
/// substring of two or more characters is found; a single character is matched as a prefix.
///
/// The index is filled from Swift rather than by a custom tokenizer, so any SQLite client can
/// still read and write the store.
///
/// The text is folded first, as a search compares texts (`folded`): `ß` and `ẞ` are `ss`,
/// full-width `ＡＢＣ` is `abc`, accents are dropped, `’` is `'` and `“` is `"`, and each emoji
/// is a word of its own, spelled as no query can (`em*` finds no emoji). The index only
/// narrows what a search looks at: a memo is found when its folded text holds what was typed,
/// symbols included (`MemoStore.search`), so `C++` finds `C++`, not every `c`.
///
/// Changing these rules needs a migration that fills the index again by the new ones; the
/// migrations that filled it before keep frozen copies of the rules of their day
/// (`Migration.indexEveryMemo(in:bySearchRuleOf:)`), so a change here cannot change them.
package enum SearchText {
    /// The indexed form of a memo's text.
    package static func indexed(_ content: String) -> String {
        String(decoding: indexedUTF8(content), as: UTF8.self)
    }

    /// `indexed` as its UTF-8 bytes, for the writer to bind as they are: folding and pairing
    /// pass bytes along, never checking or copying them into a String between them.
    static func indexedUTF8(_ content: String) -> [UInt8] {
        pairedUTF8(foldedUTF8(content), finalUnigram: true)
    }

    /// Whether `scalar` is a character alone that folds to itself (`folded`): CJK ideographs,
    /// Hangul syllables, the letters of hiragana and full-width katakana, and pictographs but
    /// skin tones (which fold to themselves but join the emoji before them), so a text can be
    /// folded a character at a time without folding those.
    package static func foldsToItself(_ scalar: Unicode.Scalar) -> Bool {
        CharacterFolding.isFoldedAsItself(scalar)
            || CharacterFolding.isPictograph(scalar) && !CharacterFolding.isDropped(scalar) && !isSkinTone(scalar)
    }

    /// Whether `scalar` is a skin-tone modifier, which a needle typed without one may end
    /// before (`SearchNeedle`): `👍` finds `👍🏽`.
    package static func isSkinTone(_ scalar: Unicode.Scalar) -> Bool {
        (0x1F3FB...0x1F3FF).contains(scalar.value)
    }

    /// The tokens of a search word, in order, as the index holds them: its letters, digits
    /// and emoji (none for a word of symbols alone).
    package static func tokens(of word: String) -> [String] {
        paired(folded(word), finalUnigram: false)
            .split(whereSeparator: { $0 == " " }).map(String.init).filter { token in
                token.unicodeScalars.contains { $0.properties.isAlphabetic || $0.properties.numericType != nil }
            }
    }

    /// Whether the word's first or only token is a single CJK character, which the index
    /// holds only as the start of its pairs: it must be matched as a prefix.
    package static func isSingleCJKCharacter(_ token: String) -> Bool {
        token.unicodeScalars.count == 1 && token.unicodeScalars.allSatisfy(CJKPairs.isCJK)
    }

    /// `text` as a search compares it: case folded fully, in compatibility forms, without the
    /// accents of Latin, Greek and Cyrillic letters, typographic quotes as plain ones,
    /// variation selectors and joiners dropped, and runs of white space made one space.
    /// ASCII text only loses its case.
    package static func folded(_ text: String) -> String {
        String(decoding: foldedUTF8(text), as: UTF8.self)
    }

    /// `folded` as its UTF-8 bytes.
    private static func foldedUTF8(_ text: String) -> [UInt8] {
        var text = text
        return text.withUTF8 { utf8 in
            guard utf8.contains(where: { $0 >= 0x80 }) else { return asciiFolded(utf8) }
            var bytes: [UInt8] = []
            bytes.reserveCapacity(utf8.count + 16)
            func append(_ scalar: Unicode.Scalar) { UTF8.encode(scalar) { bytes.append($0) } }
            var lastWasSpace = false
            // Whether the text so far is ASCII, CJK ideographs, Hangul syllables, kana letters and
            // pictographs alone, which NFC leaves as they are.
            var isComposed = true
            // Read as UTF-8 bytes: an ASCII byte is folded as it stands, and a character that
            // folds to itself is copied as its bytes, not decoded and encoded again.
            var next = 0
            while next < utf8.count {
                let start = next, byte = utf8[start]
                if byte < 0x80 {
                    next += 1
                    if byte <= 0x20 || byte == 0x7F { // white space and control characters
                        if !lastWasSpace { bytes.append(0x20) }
                        lastWasSpace = true
                    } else {
                        bytes.append((0x41...0x5A).contains(byte) ? byte + 0x20 : byte)
                        lastWasSpace = false
                    }
                    continue
                }
                let scalar: Unicode.Scalar
                (scalar, next) = UTF8Bytes.scalar(in: utf8, at: start)
                let isCJK = CJKPairs.isCJK(scalar)
                if !isCJK, scalar.properties.isWhitespace || scalar.properties.generalCategory == .control {
                    if !lastWasSpace { bytes.append(0x20) }
                    lastWasSpace = true
                    continue
                }
                lastWasSpace = false
                if isCJK, scalar.value < 0xFF65 {
                    // CJK has no case, accents or compatibility forms (but half-width kana).
                    bytes.append(contentsOf: UnsafeBufferPointer(rebasing: utf8[start..<next]))
                    if isComposed { isComposed = CharacterFolding.isFoldedAsItself(scalar) }
                } else if let plain = plainForm(of: scalar) {
                    bytes += plain.utf8 // ASCII: the accents NFC would compose it with are dropped
                } else if CharacterFolding.isDropped(scalar) {
                    continue
                } else if CharacterFolding.isPictograph(scalar) {
                    // No case, accents or compatibility forms, and NFC leaves them as they are.
                    bytes.append(contentsOf: UnsafeBufferPointer(rebasing: utf8[start..<next]))
                } else {
                    isComposed = false
                    for compatible in CharacterFolding.compatible(String(scalar)).unicodeScalars {
                        let plain = CharacterFolding.unaccented(compatible).map(String.init) ?? String(compatible)
                        for folded in CharacterFolding.caseFolded(plain).unicodeScalars
                        where !CharacterFolding.isDropped(folded) { append(folded) }
                    }
                }
            }
            return isComposed ? bytes : Array(String(decoding: bytes, as: UTF8.self)._nfcCodeUnits)
        }
    }

    /// What a keyboard without them types for typographic quotes (single, double, low and
    /// reversed, and the modifier letter apostrophe) and for capital `ẞ`, whose case folding
    /// is `ss` (lower case alone makes it `ß`).
    private static func plainForm(of scalar: Unicode.Scalar) -> String? {
        switch scalar.value {
        case 0x2018, 0x2019, 0x201A, 0x201B, 0x02BC: "'"
        case 0x201C, 0x201D, 0x201E, 0x201F: "\""
        case 0x1E9E: "ss"
        default: nil
        }
    }

    /// ASCII text folded: lower case, each run of white space one space.
    private static func asciiFolded(_ text: UnsafeBufferPointer<UInt8>) -> [UInt8] {
        var bytes: [UInt8] = []
        bytes.reserveCapacity(text.count)
        var lastWasSpace = false
        for byte in text {
            let isSpace = byte == 0x20 || (0x09...0x0D).contains(byte)
            if isSpace {
                if !lastWasSpace { bytes.append(0x20) }
            } else {
                bytes.append((0x41...0x5A).contains(byte) ? byte + 0x20 : byte)
            }
            lastWasSpace = isSpace
        }
        return bytes
    }

    /// Folded text with each emoji, skin tones included, a word of its own, `ｅｍｏｊｉ` in
    /// full-width letters and its code point in hexadecimal, and its CJK runs cut into pairs
    /// (`CJKPairs`).
    private static func paired(_ folded: String, finalUnigram: Bool) -> String {
        String(decoding: pairedUTF8(Array(folded.utf8), finalUnigram: finalUnigram), as: UTF8.self)
    }

    private static func pairedUTF8(_ folded: [UInt8], finalUnigram: Bool) -> [UInt8] {
        CJKPairs.transform(folded, finalUnigram: finalUnigram) {
            CharacterFolding.isEmoji($0) ? "ｅｍｏｊｉ" + String($0.value, radix: 16) : nil
        }
    }
}
