@_spi(_Unicode) import Swift

/// The search text rule of version 11's backfill, frozen: version 8's (`Version8SearchRule`,
/// whose frozen pieces it uses) with three changes.
///
/// - Typographic quotes are the typewriter's (`’ ‘ ‚ ‛ ʼ` are `'`, `“ ” „ ‟` are `"`), and
///   capital `ẞ` is `ss` as `ß` is: `don't` finds `don’t`, `Groß` finds `GROẞ`.
/// - Skin tones are kept: a result must hold what was typed, so `👍🏽` does not find `👍`,
///   while `👍` finds every thumbs-up (`SearchNeedle` lets a match end before a skin tone).
/// - An emoji's word in the index is spelled in full-width letters (`ｅｍｏｊｉ1f355`), which
///   folding never leaves in a text nor a query: no query spells it, so `em*` finds words
///   starting `em`, never every emoji.
///
/// `SearchText` delegates to it while the live rule is the same; a change of the live rule is
/// written in `SearchText`, never here, with a migration that re-indexes.
enum Version11SearchRule {
    /// The indexed form of a memo's text.
    static func indexed(_ content: String) -> String {
        paired(folded(content), finalUnigram: true)
    }

    /// `text` as a search compares it: case folded fully, in compatibility forms, without the
    /// accents of Latin, Greek and Cyrillic letters, typographic quotes as plain ones,
    /// variation selectors and joiners dropped, and runs of white space made one space.
    /// ASCII text only loses its case.
    static func folded(_ text: String) -> String {
        guard text.utf8.contains(where: { $0 >= 0x80 }) else { return Version8SearchRule.asciiFolded(text) }
        var bytes: [UInt8] = []
        bytes.reserveCapacity(text.utf8.count + 16)
        func append(_ scalar: Unicode.Scalar) { UTF8.encode(scalar) { bytes.append($0) } }
        var lastWasSpace = false
        // Whether the text so far is ASCII, CJK ideographs, Hangul syllables, kana letters and
        // pictographs alone, which NFC leaves as they are.
        var isComposed = true
        for scalar in text.unicodeScalars {
            let isSpace = if scalar.isASCII {
                scalar.value <= 0x20 || scalar.value == 0x7F   // white space and control characters
            } else if Version3SearchRule.isCJK(scalar) {
                false
            } else {
                scalar.properties.isWhitespace || scalar.properties.generalCategory == .control
            }
            if isSpace {
                if !lastWasSpace { bytes.append(0x20) }
                lastWasSpace = true
                continue
            }
            lastWasSpace = false
            if scalar.isASCII {
                bytes.append((0x41...0x5A).contains(scalar.value) ? UInt8(scalar.value + 0x20) : UInt8(scalar.value))
            } else if Version3SearchRule.isCJK(scalar), scalar.value < 0xFF65 {
                append(scalar)   // CJK has no case, accents or compatibility forms (but half-width kana)
                if isComposed { isComposed = Version8SearchRule.isFoldedAsItself(scalar) }
            } else if let plain = plainForm(of: scalar) {
                bytes += plain.utf8   // ASCII: the accents NFC would compose it with are dropped
            } else if isDropped(scalar) {
                continue
            } else if Version8SearchRule.isPictograph(scalar) {
                append(scalar)   // no case, accents or compatibility forms, and NFC leaves them as they are
            } else {
                isComposed = false
                for compatible in Version8SearchRule.compatible(String(scalar)).unicodeScalars {
                    let plain = Version8SearchRule.unaccented(compatible).map(String.init) ?? String(compatible)
                    for folded in Version8SearchRule.caseFolded(plain).unicodeScalars where !isDropped(folded) { append(folded) }
                }
            }
        }
        let folded = String(decoding: bytes, as: UTF8.self)
        return isComposed ? folded : String(decoding: folded._nfcCodeUnits, as: UTF8.self)
    }

    /// What a keyboard without them types for typographic quotes (single, double, low and
    /// reversed, and the modifier letter apostrophe) and for capital `ẞ`, whose case folding
    /// is `ss` (lower case alone makes it `ß`).
    static func plainForm(of scalar: Unicode.Scalar) -> String? {
        switch scalar.value {
        case 0x2018, 0x2019, 0x201A, 0x201B, 0x02BC: "'"
        case 0x201C, 0x201D, 0x201E, 0x201F: "\""
        case 0x1E9E: "ss"
        default: nil
        }
    }

    /// What a search passes over in text: version 8's (`Version8SearchRule.isDropped`) but
    /// skin tones, which a search typed with one must find.
    static func isDropped(_ scalar: Unicode.Scalar) -> Bool {
        !isSkinTone(scalar) && Version8SearchRule.isDropped(scalar)
    }

    /// The five skin-tone modifiers, U+1F3FB to U+1F3FF.
    static func isSkinTone(_ scalar: Unicode.Scalar) -> Bool {
        (0x1F3FB...0x1F3FF).contains(scalar.value)
    }

    /// Folded text with each emoji, skin tones included, a word of its own, `ｅｍｏｊｉ` in
    /// full-width letters and its code point in hexadecimal, and its CJK runs cut into pairs
    /// (`Version3SearchRule`).
    static func paired(_ folded: String, finalUnigram: Bool) -> String {
        Version3SearchRule.transform(folded, finalUnigram: finalUnigram) {
            Version8SearchRule.isEmoji($0) ? "ｅｍｏｊｉ" + String($0.value, radix: 16) : nil
        }
    }
}
