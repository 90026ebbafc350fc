/// The rules every memo's text obeys, whichever face it came through.
package enum MemoContent {
    /// The largest content accepted, in UTF-8 bytes (1 MiB).
    package static let maximumBytes = 1 << 20

    /// The text up to its first line break.
    package static func firstLine(of content: String) -> String {
        String(content.split(separator: "\n", maxSplits: 1, omittingEmptySubsequences: false).first ?? "")
    }

    /// The first line that is not blank: what names a memo in a menu, a hint or a symbol,
    /// which an empty label would leave blank (and LSP forbids one).
    package static func title(of content: some StringProtocol) -> String {
        String(content.split(separator: "\n").first { !$0.allSatisfy(\.isWhitespace) } ?? "")
    }

    /// Checks `content` for the store: not empty (after trimming white space) and at most 1 MiB.
    /// Validity of UTF-8 is checked where bytes become a `String`.
    package static func validate(_ content: String) throws(StoreError) {
        if content.allSatisfy(\.isWhitespace) {
            throw .invalidContent("memo text is empty")
        }
        let size = content.utf8.count
        if size > maximumBytes {
            throw .invalidContent("memo text is \(size) bytes; the limit is \(maximumBytes) (1 MiB)")
        }
    }
}
