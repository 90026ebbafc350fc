/// How many terminal columns text takes: East Asian wide characters and emoji take two,
/// combining marks none. An approximation of `wcwidth` that is the same on every machine,
/// so script output does not depend on the locale.
package enum DisplayWidth {
    package static func of(_ text: some StringProtocol) -> Int {
        if isPrintableASCII(text) { return text.utf8.count }
        return text.reduce(0) { $0 + of($1) }
    }

    /// Whether every byte is printable ASCII (space to tilde): one column each, and no
    /// Unicode tables need asking. Most memo text is, so this check comes first.
    static func isPrintableASCII(_ text: some StringProtocol) -> Bool {
        text.utf8.allSatisfy { $0 >= 0x20 && $0 < 0x7F }
    }

    static func of(_ character: Character) -> Int {
        var width = 0
        for scalar in character.unicodeScalars {
            // Below U+0300 (Latin and its punctuation) every printable scalar takes one column;
            // only the rest needs Unicode's tables.
            if scalar.value < 0x300 {
                if width == 0, scalar.value >= 0x20, !(0x7F...0x9F).contains(scalar.value) { width = 1 }
                continue
            }
            if isWide(scalar.value) || scalar.properties.isEmojiPresentation { return 2 }
            if width == 0, !isZeroWidth(scalar) { width = 1 }
        }
        return width
    }

    /// `text` cut to at most `columns` columns, ending in `…` when something was cut.
    static func shorten(_ text: String, to columns: Int) -> String {
        guard of(text) > columns else { return text }
        guard columns > 0 else { return "" }
        if isPrintableASCII(text) { return String(text.utf8.prefix(columns - 1))! + "…" }
        var result = ""
        var used = 0
        for character in text {
            let width = of(character)
            if used + width > columns - 1 { break }
            result.append(character)
            used += width
        }
        return result + "…"
    }

    private static func isZeroWidth(_ scalar: Unicode.Scalar) -> Bool {
        switch scalar.properties.generalCategory {
        case .nonspacingMark, .enclosingMark, .format, .control: true
        default: false
        }
    }

    private static func isWide(_ value: UInt32) -> Bool {
        switch value {
        case 0x1100...0x115F, 0x2E80...0x303E, 0x3041...0x33FF, 0x3400...0x4DBF, 0x4E00...0x9FFF,
            0xA000...0xA4CF, 0xAC00...0xD7A3, 0xF900...0xFAFF, 0xFE30...0xFE4F, 0xFF00...0xFF60,
            0xFFE0...0xFFE6, 0x1F300...0x1F64F, 0x1F900...0x1F9FF, 0x20000...0x3FFFD:
            true
        default:
            false
        }
    }
}
