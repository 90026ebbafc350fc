import Glibc
import MemoStore

/// Checks on text as raw UTF-8 bytes, for the paths that copy a memo's bytes straight from
/// SQLite to the output (listing and exporting every memo): they take that path only for
/// text these checks pass, and otherwise decode the memo like every other output does, so
/// both ways print the same (`RowRenderingTests`).
package enum ByteText {
    /// Valid UTF-8 without a character a terminal shows escaped (`TerminalText`): no
    /// control character (C0, DEL or C1) and no bidirectional formatting character, which
    /// would reorder what follows it. It prints as it is.
    static func isPlain(_ bytes: UnsafeRawBufferPointer) -> Bool {
        UTF8Bytes.kind(of: bytes) == .plain && !containsBidirectionalFormatting(bytes)
    }

    /// Whether valid UTF-8 holds a bidirectional formatting character: their lead byte `E2` is
    /// found with `memchr`, as it is rare in text (general punctuation, arrows, symbols).
    private static func containsBidirectionalFormatting(_ bytes: UnsafeRawBufferPointer) -> Bool {
        var index = 0
        while let found = firstIndex(of: 0xE2, in: UnsafeRawBufferPointer(rebasing: bytes[index...])) {
            let lead = index + found
            guard lead + 2 < bytes.count else { return false }
            if TerminalText.isBidirectionalFormatting(after: bytes[lead + 1], bytes[lead + 2]) { return true }
            index = lead + 1
        }
        return false
    }

    /// Valid UTF-8 (strict, as Swift decodes it), control characters allowed (JSON escapes them).
    package static func isValid(_ bytes: UnsafeRawBufferPointer) -> Bool {
        UTF8Bytes.isValid(bytes)
    }

    /// A literal's bytes, copied whole: `bytes += "…".utf8` goes through the string's storage
    /// byte by byte, and a listing or export writes several literals a memo.
    static func append(_ literal: StaticString, to bytes: inout [UInt8]) {
        literal.withUTF8Buffer { bytes += $0 }
    }

    /// `number` in decimal, appended without making a `String` of it (a listing writes one a
    /// memo).
    static func appendDecimal(_ number: Int64, to bytes: inout [UInt8]) {
        if number < 0 { bytes.append(UInt8(ascii: "-")) }
        withUnsafeTemporaryAllocation(of: UInt8.self, capacity: 20) { digits in
            var rest = number.magnitude, start = digits.count
            repeat {
                start -= 1
                digits[start] = UInt8(ascii: "0") + UInt8(rest % 10)
                rest /= 10
            } while rest > 0
            bytes += UnsafeBufferPointer(rebasing: digits[start...])
        }
    }

    /// The index of the first `byte` in `bytes`, or nil.
    static func firstIndex(of byte: UInt8, in bytes: UnsafeRawBufferPointer) -> Int? {
        guard let base = bytes.baseAddress, let found = memchr(base, Int32(byte), bytes.count) else { return nil }
        return UnsafeRawPointer(found) - base
    }

    /// Where the inline tags of a plain line are (see `TagName.inlineTags`), each without its
    /// `@`, when every one of them is plain ASCII in an ASCII context; nil when deciding needs
    /// Unicode's tables (an `@` after a non-ASCII character, a tag running into one).
    static func asciiInlineTags(_ line: UnsafeRawBufferPointer) -> [Range<Int>]? {
        var tags: [Range<Int>] = []
        var index = 0
        while let at = firstIndex(of: UInt8(ascii: "@"), in: UnsafeRawBufferPointer(rebasing: line[index...])) {
            index += at
            if index > 0 {
                let previous = line[index - 1]
                if previous >= 0x80 { return nil }
                guard previous == UInt8(ascii: " ") || "([{\"'".utf8.contains(previous) else {
                    index += 1
                    continue
                }
            }
            var end = index + 1
            while end < line.count, isASCIITagByte(line[end]) { end += 1 }
            if end < line.count, line[end] >= 0x80 { return nil }
            if end > index + 1 { tags.append((index + 1)..<end) }
            index = end
        }
        return tags
    }

    /// Whether ASCII `text`, lower-cased, is `name` (a tag's name as the store keeps it).
    static func lowercased(_ text: Slice<UnsafeRawBufferPointer>, equals name: UnsafeRawBufferPointer) -> Bool {
        text.count == name.count && zip(text, name).allSatisfy { ((0x41...0x5A).contains($0) ? $0 + 0x20 : $0) == $1 }
    }

    /// Calls `body` with each word of `text` between single spaces (a row's tag names).
    static func forEachWord(in text: UnsafeRawBufferPointer, _ body: (UnsafeRawBufferPointer) -> Void) {
        var start = 0
        while start < text.count {
            let rest = UnsafeRawBufferPointer(rebasing: text[start...])
            let end = firstIndex(of: UInt8(ascii: " "), in: rest).map { start + $0 } ?? text.count
            if end > start { body(UnsafeRawBufferPointer(rebasing: text[start..<end])) }
            start = end + 1
        }
    }

    private static func isASCIITagByte(_ byte: UInt8) -> Bool {
        (0x30...0x39).contains(byte) || (0x41...0x5A).contains(byte) || (0x61...0x7A).contains(byte)
            || byte == UInt8(ascii: "_") || byte == UInt8(ascii: "-")
    }
}
