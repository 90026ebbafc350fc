/// The search text rule of version 8's backfill, frozen: version 3's pairs of CJK characters
/// (`Version3SearchRule`), over text folded as a search compares it (`folded`): full case
/// folding (`ß` is `ss`), compatibility forms (full-width `ＡＢＣ` is `ABC`, `ﬁ` is `fi`,
/// half-width katakana is full-width), and emoji as words of their own (`emoji1f355`), which
/// FTS5's tokenizer would otherwise drop. `SearchText` delegates to it while the live rule is
/// the same; a change of the live rule is written in `SearchText`, never here, with a
/// migration that re-indexes.
enum Version8SearchRule {
    /// The indexed form of a memo's text.
    static func indexed(_ content: String) -> String {
        Version3SearchRule.indexed(withEmojiWords(folded(content)))
    }

    /// `text` as a search compares it: case folded fully, in compatibility forms, without the
    /// accents of Latin, Greek and Cyrillic letters, variation selectors and joiners dropped,
    /// and runs of white space made one space. ASCII text only loses its case.
    static func folded(_ text: String) -> String {
        guard text.utf8.contains(where: { $0 >= 0x80 }) else { return asciiFolded(text) }
        var scalars = String.UnicodeScalarView()
        var lastWasSpace = false
        for scalar in text.unicodeScalars {
            if scalar.properties.isWhitespace {
                if !lastWasSpace { scalars.append(" ") }
                lastWasSpace = true
                continue
            }
            lastWasSpace = false
            if scalar.isASCII {
                scalars.append(scalar.properties.isUppercase ? Unicode.Scalar(scalar.value + 0x20)! : scalar)
            } else if Version3SearchRule.isCJK(scalar), scalar.value < 0xFF65 {
                scalars.append(scalar)   // CJK has no case, accents or compatibility forms (but half-width kana)
            } else if (0x0300...0x036F).contains(scalar.value) || [0xFE0E, 0xFE0F, 0x200D].contains(scalar.value) {
                continue
            } else {
                for folded in caseFolded(compatible(unaccented[scalar.value].map(String.init) ?? String(scalar))).unicodeScalars {
                    scalars.append(folded)
                }
            }
        }
        return String(decoding: String(scalars)._nfcCodeUnits, as: UTF8.self)
    }

    private static func asciiFolded(_ text: String) -> String {
        var bytes: [UInt8] = []
        bytes.reserveCapacity(text.utf8.count)
        var lastWasSpace = false
        for byte in text.utf8 {
            let isSpace = byte == 0x20 || (0x09...0x0D).contains(byte)
            if isSpace {
                if !lastWasSpace { bytes.append(0x20) }
            } else {
                bytes.append((0x41...0x5A).contains(byte) ? byte + 0x20 : byte)
            }
            lastWasSpace = isSpace
        }
        return String(decoding: bytes, as: UTF8.self)
    }

    /// The Latin letters with accents (`é`, `ñ`, `ø`, `ş`) as their letters, by their Unicode
    /// names (`LATIN SMALL LETTER E WITH ACUTE`): the standard library has no decomposition
    /// to read them from. Accents typed apart from their letters (U+0300 to U+036F) are
    /// dropped where they stand.
    private static let unaccented: [UInt32: Character] = {
        var table: [UInt32: Character] = [:]
        for value in Array(0x00C0...0x024F) + Array(0x1E00...0x1EFF) {
            guard let scalar = Unicode.Scalar(UInt32(value)), let name = scalar.properties.name else { continue }
            let words = name.split(separator: " ")
            guard words.count > 4, words[0] == "LATIN", words[2] == "LETTER", words[4] == "WITH", words[3].count == 1,
                  let letter = words[3].first, letter.isASCII, letter.isLetter else { continue }
            table[UInt32(value)] = words[1] == "SMALL" ? Character(letter.lowercased()) : letter
        }
        return table
    }()

    /// Full case folding, as lower case of upper case: `ß` becomes `ss`, `ﬁ` `fi`, `ς` `σ`.
    private static func caseFolded(_ text: String) -> String {
        text.utf8.allSatisfy({ $0 < 0x80 }) ? text.lowercased() : text.uppercased().lowercased()
    }

    /// The compatibility forms a person types as their plain letters: full-width ASCII and the
    /// ideographic space, half-width katakana, Latin ligatures, super- and subscript digits,
    /// circled numbers.
    private static func compatible(_ text: String) -> String {
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
        default: return String(scalar)
        }
    }

    /// U+FF65 to U+FF9F as the full-width kana and marks they stand for.
    private static let halfWidthKana: [String] = "・ヲァィゥェォャュョッーアイウエオカキクケコサシスセソタチツテトナニヌネノハヒフヘホマミムメモヤユヨラリルレロワン\u{3099}\u{309A}"
        .unicodeScalars.map { String($0) }

    /// `text` with each emoji a word of its own, `emoji` and its code point in hexadecimal,
    /// so the index holds it (the tokenizer takes only letters and digits into words).
    static func withEmojiWords(_ text: String) -> String {
        guard text.unicodeScalars.contains(where: isEmoji) else { return text }
        var result = ""
        for scalar in text.unicodeScalars {
            if isEmoji(scalar) {
                result += " emoji" + String(scalar.value, radix: 16) + " "
            } else {
                result.unicodeScalars.append(scalar)
            }
        }
        return result
    }

    /// Emoji and the modifiers of skin tone; not the ASCII digits, `#` and `*` that begin a
    /// keycap.
    static func isEmoji(_ scalar: Unicode.Scalar) -> Bool {
        scalar.value > 0x7F && scalar.properties.isEmoji && scalar.properties.generalCategory == .otherSymbol
            || scalar.properties.isEmojiModifier
    }
}
