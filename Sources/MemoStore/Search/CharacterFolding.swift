@_spi(_Unicode) import Swift

/// The pieces of a search's folding that take one character (`SearchText.folded`): its
/// plain letters, case, compatibility forms, and whether folding drops it or leaves it as it
/// is.
enum CharacterFolding {
    /// CJK ideographs, Hangul syllables and the letters of hiragana and full-width katakana,
    /// which folding and NFC leave as they are: a text of these (and ASCII) needs no
    /// normalizing, and one of them alone folds to itself. NFC composes none of them with
    /// what comes before; what composes with them after (the kana voiced marks U+3099 and
    /// U+309A, Hangul's trailing jamo) is not among them, so its text is normalized.
    static func isFoldedAsItself(_ scalar: Unicode.Scalar) -> Bool {
        (0x4E00...0x9FFF).contains(scalar.value) || (0xAC00...0xD7A3).contains(scalar.value)
            || (0x3041...0x3096).contains(scalar.value) || (0x30A1...0x30FA).contains(scalar.value)
    }

    /// What a search passes over in text: accents typed apart from their letters (U+0300 to
    /// U+036F), variation selectors, the joiners inside emoji, and the invisible breaks and
    /// joiners inside words (zero-width space, soft hyphen, word joiner, byte-order mark).
    /// Not skin tones, which a search typed with one must find.
    static func isDropped(_ scalar: Unicode.Scalar) -> Bool {
        switch scalar.value {
        case 0x0300...0x036F, 0xFE0E, 0xFE0F, 0x200B, 0x200D, 0x00AD, 0x2060, 0xFEFF: true
        default: false
        }
    }

    /// The pictographs and emoticons (U+1F300 to U+1FAFF) and the older symbols and dingbats
    /// (U+2600 to U+27BF, `☕` and `✈`), most emoji people type: folding and NFC leave each as
    /// it is.
    static func isPictograph(_ scalar: Unicode.Scalar) -> Bool {
        (0x1F300...0x1FAFF).contains(scalar.value) || (0x2600...0x27BF).contains(scalar.value)
    }

    /// The letter of a Latin, Greek or Cyrillic letter with accents (`é`, `ñ`, `ø`, `ό`, `ё`,
    /// `й`), found two ways: for the Latin letters whose accent is part of the letter (`ø`,
    /// `ł`, `đ`), by their Unicode names (`LATIN SMALL LETTER O WITH STROKE`); otherwise by
    /// canonical decomposition into one of `letters` and one or two accents (U+0300 to
    /// U+036F), for a character that is its own composition (not `ά` U+1F71, which NFC writes
    /// as U+03AC). Accents typed apart from their letters are dropped where they stand.
    ///
    /// Worked out a character at a time: the table of all of them took 12 ms to build, the
    /// start-up of any search whose results hold one accent. (The rule once built that table
    /// by composing each letter with each accent, twice; this finds exactly its entries.)
    static func unaccented(_ scalar: Unicode.Scalar) -> Character? {
        let value = scalar.value
        guard (0x00C0...0x04FF).contains(value) || (0x1E00...0x1FFF).contains(value) else { return nil }
        if value <= 0x024F || value >= 0x1E00 && value <= 0x1EFF, let name = scalar.properties.name {
            let words = name.split(separator: " ")
            if words.count > 4, words[0] == "LATIN", words[2] == "LETTER", words[4] == "WITH", words[3].count == 1,
                let letter = words[3].first, letter.isASCII, letter.isLetter
            {
                return words[1] == "SMALL" ? Character(letter.lowercased()) : letter
            }
        }
        let decomposed = Array(String(scalar)._nfd)
        guard (2...3).contains(decomposed.count), letters.contains(decomposed[0].value),
            decomposed.dropFirst().allSatisfy({ (0x0300...0x036F).contains($0.value) }),
            String(decoding: String(scalar)._nfcCodeUnits, as: UTF8.self).unicodeScalars.elementsEqual([scalar])
        else { return nil }
        return Character(decomposed[0])
    }

    /// The letters accents are taken off: Latin, Greek, Cyrillic, and Ukrainian and
    /// Belarusian `І і У у`.
    private static let letters = Set(
        (Array(0x41...0x5A) + Array(0x61...0x7A) + Array(0x0391...0x03A9) + Array(0x03B1...0x03C9)
            + Array(0x0410...0x044F) + [0x0406, 0x0456, 0x0423, 0x0443]).map(UInt32.init))

    /// Full case folding, as lower case of upper case: `ß` becomes `ss`, `ﬁ` `fi`, `ς` `σ`.
    static func caseFolded(_ text: String) -> String {
        text.utf8.allSatisfy({ $0 < 0x80 }) ? text.lowercased() : text.uppercased().lowercased()
    }

    /// The compatibility forms a person types as their plain letters: full-width ASCII and the
    /// ideographic space, half-width katakana, Latin ligatures, super- and subscript digits,
    /// circled numbers.
    static func compatible(_ text: String) -> String {
        guard let scalar = text.unicodeScalars.first, text.unicodeScalars.count == 1 else { return text }
        let value = scalar.value
        switch value {
        case 0xFF01...0xFF5E: return String(Character(Unicode.Scalar(value - 0xFEE0)!))
        case 0x3000: return " "
        case 0xFF65...0xFF9F: return halfWidthKana[Int(value - 0xFF65)]
        case 0xFB00: return "ff"
        case 0xFB01: return "fi"
        case 0xFB02: return "fl"
        case 0xFB03: return "ffi"
        case 0xFB04: return "ffl"
        case 0xFB05, 0xFB06: return "st"
        case 0x2070: return "0"
        case 0x00B9: return "1"
        case 0x00B2: return "2"
        case 0x00B3: return "3"
        case 0x2074...0x2079: return String(value - 0x2070)
        case 0x2080...0x2089: return String(value - 0x2080)
        case 0x2460...0x2473: return String(value - 0x245F)
        case 0x2160...0x216F: return romanNumerals[Int(value - 0x2160)]
        case 0x2170...0x217F: return romanNumerals[Int(value - 0x2170)].lowercased()
        case 0x01C4...0x01CC, 0x01F1...0x01F3: return digraphs[scalar] ?? String(scalar)
        default: return String(scalar)
        }
    }

    /// U+2160 to U+216F, the Roman numerals, as the letters they are written with.
    private static let romanNumerals = [
        "I", "II", "III", "IV", "V", "VI", "VII", "VIII", "IX", "X", "XI", "XII", "L", "C", "D", "M"
    ]

    /// The Latin digraphs of one character (`Ǆ`, `ǅ`, `ǉ`) as their two letters.
    private static let digraphs: [Unicode.Scalar: String] = [
        "\u{01C4}": "DŽ", "\u{01C5}": "Dž", "\u{01C6}": "dž", "\u{01C7}": "LJ", "\u{01C8}": "Lj", "\u{01C9}": "lj",
        "\u{01CA}": "NJ", "\u{01CB}": "Nj", "\u{01CC}": "nj", "\u{01F1}": "DZ", "\u{01F2}": "Dz", "\u{01F3}": "dz"
    ]

    /// U+FF65 to U+FF9F as the full-width kana and marks they stand for.
    private static let halfWidthKana: [String] =
        "・ヲァィゥェォャュョッーアイウエオカキクケコサシスセソタチツテトナニヌネノハヒフヘホマミムメモヤユヨラリルレロワン\u{3099}\u{309A}"
        .unicodeScalars.map { String($0) }

    /// Emoji and the modifiers of skin tone; not the ASCII digits, `#` and `*` that begin a
    /// keycap.
    static func isEmoji(_ scalar: Unicode.Scalar) -> Bool {
        guard scalar.value > 0x7F, !CJKPairs.isCJK(scalar) else { return false } // neither holds any
        return scalar.properties.isEmoji && scalar.properties.generalCategory == .otherSymbol
            || scalar.properties.isEmojiModifier
    }
}
