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
/// still read and write the store. Changing these rules needs a migration that re-indexes.
///
/// The text is folded first, as a search compares texts (`folded`): `ß` and `ẞ` are `ss`,
/// full-width `ＡＢＣ` is `abc`, accents are dropped, `’` is `'` and `“` is `"`, and each emoji
/// is a word of its own, spelled as no query can (`em*` finds no emoji). The index only
/// narrows what a search looks at: a memo is found when its folded text holds what was typed,
/// symbols included (`MemoStore.search`), so `C++` finds `C++`, not every `c`.
///
/// Today's rules are the ones version 11's backfill froze (`Version11SearchRule`): these
/// delegate to it, so they exist once. When the rules change, write the new ones here and
/// leave the frozen ones alone.
package enum SearchText {
    /// The indexed form of a memo's text.
    package static func indexed(_ content: String) -> String {
        Version11SearchRule.indexed(content)
    }

    /// `text` as a search compares it (case, accents, compatibility forms and white space
    /// folded).
    package static func folded(_ text: String) -> String {
        Version11SearchRule.folded(text)
    }

    /// Whether `scalar` is a character alone that folds to itself (`folded`): CJK ideographs,
    /// Hangul syllables, the letters of hiragana and full-width katakana, and pictographs but
    /// skin tones (which fold to themselves but join the emoji before them), so a text can be
    /// folded a character at a time without folding those.
    package static func foldsToItself(_ scalar: Unicode.Scalar) -> Bool {
        Version8SearchRule.isFoldedAsItself(scalar)
            || Version8SearchRule.isPictograph(scalar) && !Version11SearchRule.isDropped(scalar) && !Version11SearchRule.isSkinTone(scalar)
    }

    /// Whether `scalar` is a skin-tone modifier, which a needle typed without one may end
    /// before (`SearchNeedle`): `👍` finds `👍🏽`.
    package static func isSkinTone(_ scalar: Unicode.Scalar) -> Bool {
        Version11SearchRule.isSkinTone(scalar)
    }

    /// The tokens of a search word, in order, as the index holds them: its letters, digits
    /// and emoji (none for a word of symbols alone).
    package static func tokens(of word: String) -> [String] {
        Version11SearchRule.paired(folded(word), finalUnigram: false)
            .split(whereSeparator: { $0 == " " }).map(String.init).filter { token in
                token.unicodeScalars.contains { $0.properties.isAlphabetic || $0.properties.numericType != nil }
            }
    }

    /// Whether the word's first or only token is a single CJK character, which the index
    /// holds only as the start of its pairs: it must be matched as a prefix.
    package static func isSingleCJKCharacter(_ token: String) -> Bool {
        token.unicodeScalars.count == 1 && token.unicodeScalars.allSatisfy(Version3SearchRule.isCJK)
    }
}
