/// Memo text made safe to print on a terminal: a memo must not be able to move the cursor,
/// clear the screen or retitle the window. Control characters are shown in caret notation
/// (`^[` for ESC, `^?` for DEL, as `cat -v` shows them) or as `<U+009B>` for the C1 controls,
/// so the reader still sees that something is there. So are the bidirectional embeddings,
/// overrides and isolates (U+202A to U+202E, U+2066 to U+2069), which reorder what follows
/// them on the line: `<U+202E>` in a memo must not make its text read backwards.
package enum TerminalText {
    /// `text` for one terminal row: tabs become spaces, line breaks are shown like any control.
    package static func row(_ text: some StringProtocol) -> String {
        visible(text, keeping: [])
    }

    /// The first line of `text` as one row, and whether more lines follow: the listing's view
    /// of a memo. One pass over the bytes finds the line break and any control character.
    package static func firstRow(of text: String) -> (row: String, hasMore: Bool) {
        var text = text
        // The line ends at its line feed, or at the carriage return before it (CR LF).
        let (end, breakStart, hasControl) = text.withUTF8 { bytes -> (Int, Int, Bool) in
            var previous: (UInt8, UInt8) = (0, 0), hasControl = false, controlBeforeCR = false
            for index in bytes.indices {
                let byte = bytes[index]
                if byte == UInt8(ascii: "\n") {
                    let isCRLF = previous.1 == UInt8(ascii: "\r")
                    return (index, isCRLF ? index - 1 : index, isCRLF ? controlBeforeCR : hasControl)
                }
                controlBeforeCR = hasControl
                if isControl(byte, after: previous) { hasControl = true }
                previous = (previous.1, byte)
            }
            return (bytes.count, bytes.count, hasControl)
        }
        let hasMore = end < text.utf8.count
        let line = hasMore ? Substring(text.utf8.prefix(breakStart)) : Substring(text)
        return (hasControl ? row(line) : String(line), hasMore)
    }

    /// `text` for a block of rows: line breaks and tabs stay, other controls become visible.
    package static func block(_ text: some StringProtocol) -> String {
        visible(text, keeping: ["\n", "\t"])
    }

    private static func visible(_ text: some StringProtocol, keeping kept: Set<Unicode.Scalar>) -> String {
        if !containsControl(text.utf8) { return String(text) }
        var result = String.UnicodeScalarView()
        for scalar in text.unicodeScalars {
            if kept.contains(scalar) || !isControl(scalar) {
                result.append(scalar)
            } else if scalar == "\t" {
                result.append(" ")
            } else if scalar.value < 0x20 {
                // C0: ^@ to ^_, as cat -v shows them.
                result.append(contentsOf: "^".unicodeScalars)
                result.append(Unicode.Scalar(UInt8(scalar.value + 0x40)))
            } else if scalar.value == 0x7F {
                result.append(contentsOf: "^?".unicodeScalars)
            } else {
                let hex = String(scalar.value, radix: 16, uppercase: true)
                result.append(
                    contentsOf: "<U+\(String(repeating: "0", count: max(0, 4 - hex.count)) + hex)>".unicodeScalars)
            }
        }
        return String(result)
    }

    /// Unicode's control characters (general category Cc: C0, DEL and C1), and the
    /// bidirectional formatting characters that reorder text.
    private static func isControl(_ scalar: Unicode.Scalar) -> Bool {
        scalar.value < 0x20 || (0x7F...0x9F).contains(scalar.value)
            || (0x202A...0x202E).contains(scalar.value) || (0x2066...0x2069).contains(scalar.value)
    }

    /// Whether `byte` (after the two bytes `previous`) completes a character `isControl` names,
    /// in UTF-8: C0 and DEL are single bytes, C1 is `C2 80` to `C2 9F`, the bidirectional ones
    /// `E2 80 AA` to `E2 80 AE` and `E2 81 A6` to `E2 81 A9`.
    private static func isControl(_ byte: UInt8, after previous: (UInt8, UInt8)) -> Bool {
        byte < 0x20 || byte == 0x7F || (previous.1 == 0xC2 && (0x80...0x9F).contains(byte))
            || (previous.0 == 0xE2 && isBidirectionalFormatting(after: previous.1, byte))
    }

    /// Whether the bytes after an `E2` lead byte, `second` and `third`, make one of the
    /// bidirectional formatting characters (`E2 80 AA` to `E2 80 AE`, `E2 81 A6` to `E2 81 A9`).
    static func isBidirectionalFormatting(after second: UInt8, _ third: UInt8) -> Bool {
        (second == 0x80 && (0xAA...0xAE).contains(third)) || (second == 0x81 && (0xA6...0xA9).contains(third))
    }

    /// Whether UTF-8 bytes hold a character `isControl` names, without decoding them: read
    /// in place when they stand in memory (a string's), else one by one.
    private static func containsControl(_ bytes: some Collection<UInt8>) -> Bool {
        bytes.withContiguousStorageIfAvailable { scanForControl($0) } ?? scanForControl(bytes)
    }

    private static func scanForControl(_ bytes: some Sequence<UInt8>) -> Bool {
        var previous: (UInt8, UInt8) = (0, 0)
        for byte in bytes {
            if isControl(byte, after: previous) { return true }
            previous = (previous.1, byte)
        }
        return false
    }
}
