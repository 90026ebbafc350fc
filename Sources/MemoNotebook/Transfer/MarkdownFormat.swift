/// How a memo's metadata travels in Markdown: an HTML comment, the last line of its item,
/// `<!-- memo FIELDS -->` (`MarkdownMetadata`), with its uuid, dates, tags, sync version and
/// links; exports before it wrote `<!-- memo {JSON} -->`, which still reads, with the JSON
/// record's members (`>` escaped as `\u003e`). A text that the item's lines cannot carry
/// exactly (a carriage return or another control character, a line or paragraph separator,
/// a byte-order mark, a line that starts like a comment) also goes into the comment, which
/// then holds the memo's text: the item only shows it.
enum MarkdownFormat {
    static let metadataPrefix = "<!-- memo "
    static let metadataSuffix = " -->"

    /// True when the text, written as an item's lines, reads back exactly.
    static func readsBackAsItem(_ text: String) -> Bool {
        !text.unicodeScalars.contains(where: isUnsafe)
            && !text.split(separator: "\n").contains { $0.hasPrefix("<!--") }
    }

    /// The text as an item shows it when the comment carries it: control characters as
    /// their visible pictures (␍, ␀, ␛), and a line that starts like a comment escaped.
    static func visible(_ text: String) -> String {
        var shown = String.UnicodeScalarView()
        for scalar in text.unicodeScalars {
            shown.append(isUnsafe(scalar) ? picture(of: scalar) : scalar)
        }
        return String(shown).split(separator: "\n", omittingEmptySubsequences: false)
            .map { $0.hasPrefix("<!--") ? "\\" + $0 : String($0) }.joined(separator: "\n")
    }

    /// Characters a line of Markdown does not carry as they are: the line reader drops a
    /// `\r` before a line break, and terminals and viewers act on the others.
    private static func isUnsafe(_ scalar: Unicode.Scalar) -> Bool {
        switch scalar.value {
        case 0x0A, 0x09: false
        case 0x00...0x1F, 0x7F...0x9F, 0x2028, 0x2029, 0xFEFF: true
        default: false
        }
    }

    private static func picture(of scalar: Unicode.Scalar) -> Unicode.Scalar {
        switch scalar.value {
        case 0x00...0x1F: Unicode.Scalar(0x2400 + scalar.value) ?? "\u{FFFD}"
        case 0x7F: "\u{2421}"
        default: "\u{FFFD}"
        }
    }
}
