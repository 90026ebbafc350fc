/// The few string edits memo used from Foundation's `NSString`, with the same results, so
/// that no module needs Foundation (and its ICU data) for them.
extension StringProtocol {
    /// The text without leading and trailing spaces and tabs: what Foundation's
    /// `trimmingCharacters(in: .whitespaces)` removes (tab and the space separators, Zs),
    /// scalar by scalar; line breaks stay.
    package func trimmingSpaces() -> String {
        let scalars = String(self).unicodeScalars
        guard let first = scalars.firstIndex(where: { !isSpace($0) }),
            let last = scalars.lastIndex(where: { !isSpace($0) })
        else { return "" }
        return String(scalars[first...last])
    }

    /// The text cut or filled with spaces to `length` UTF-16 code units, as Foundation's
    /// `padding(toLength:withPad:" ",startingAt:0)` does: columns line up as they always did.
    package func paddedWithSpaces(toLength length: Int) -> String {
        let count = utf16.count
        if count >= length { return String(decoding: utf16.prefix(length), as: UTF16.self) }
        return String(self) + String(repeating: " ", count: length - count)
    }

    /// The longest start of this text that `other` starts with too, compared character by
    /// character (canonically equivalent characters match), as Foundation's `commonPrefix(with:)`.
    package func sharedPrefix(with other: some StringProtocol) -> String {
        String(zip(self, other).prefix { $0.0 == $0.1 }.map(\.0))
    }
}

/// Tab or a space separator: the members of Foundation's `CharacterSet.whitespaces`.
func isSpace(_ scalar: Unicode.Scalar) -> Bool {
    scalar == "\t" || scalar.properties.generalCategory == .spaceSeparator
}
