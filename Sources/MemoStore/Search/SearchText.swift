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
package enum SearchText {
    /// The indexed form of a memo's text.
    package static func indexed(_ content: String) -> String {
        transform(content, finalUnigram: true)
    }

    /// The tokens of a search word, in order, as the index holds them.
    package static func tokens(of word: String) -> [String] {
        transform(word, finalUnigram: false).split(whereSeparator: { $0 == " " }).map(String.init).filter { token in
            token.unicodeScalars.contains { $0.properties.isAlphabetic || $0.properties.numericType != nil }
        }
    }

    /// Whether the word's first or only token is a single CJK character, which the index
    /// holds only as the start of its pairs: it must be matched as a prefix.
    package static func isSingleCJKCharacter(_ token: String) -> Bool {
        token.unicodeScalars.count == 1 && token.unicodeScalars.allSatisfy(isCJK)
    }

    private static func transform(_ text: String, finalUnigram: Bool) -> String {
        // Every CJK character takes three or four UTF-8 bytes starting at E1 or above; text
        // without such bytes (English, most European languages) is indexed as it is.
        guard text.utf8.contains(where: { $0 >= 0xE1 }) else { return text }
        var result: [UInt8] = []
        result.reserveCapacity(text.utf8.count * 2)
        var run: [Unicode.Scalar] = []
        func append(_ scalar: Unicode.Scalar) {
            UTF8.encode(scalar) { result.append($0) }
        }
        func flushRun() {
            guard !run.isEmpty else { return }
            result.append(UInt8(ascii: " "))
            if run.count == 1 {
                append(run[0])
            } else {
                for index in 0..<(run.count - 1) {
                    if index > 0 { result.append(UInt8(ascii: " ")) }
                    append(run[index])
                    append(run[index + 1])
                }
                if finalUnigram {
                    result.append(UInt8(ascii: " "))
                    append(run[run.count - 1])
                }
            }
            result.append(UInt8(ascii: " "))
            run.removeAll(keepingCapacity: true)
        }
        for scalar in text.unicodeScalars {
            if isCJK(scalar) {
                run.append(scalar)
            } else {
                flushRun()
                append(scalar)
            }
        }
        flushRun()
        return String(decoding: result, as: UTF8.self)
    }

    /// Han ideographs, hiragana, katakana (full and half width) and Hangul.
    private static func isCJK(_ scalar: Unicode.Scalar) -> Bool {
        switch scalar.value {
        case 0x3040...0x30FF, 0x31F0...0x31FF, 0xFF66...0xFF9F,   // kana
             0x3400...0x4DBF, 0x4E00...0x9FFF, 0xF900...0xFAFF, 0x20000...0x2FA1F,   // Han
             0x1100...0x11FF, 0x3130...0x318F, 0xAC00...0xD7AF:   // Hangul
            true
        default:
            false
        }
    }
}
