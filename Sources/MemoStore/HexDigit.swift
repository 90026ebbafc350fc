/// Hexadecimal digits as bytes, read and written by hand where text is parsed a byte at a time
/// (uuids, state names, JSON's `\u` escapes): the one place that knows their values.
package enum HexDigit {
    /// The value of a hex digit, either case unless `lowerCaseOnly`; nil for any other byte.
    package static func value(of byte: UInt8, lowerCaseOnly: Bool = false) -> UInt8? {
        switch byte {
        case UInt8(ascii: "0")...UInt8(ascii: "9"): byte - UInt8(ascii: "0")
        case UInt8(ascii: "a")...UInt8(ascii: "f"): byte - UInt8(ascii: "a") + 10
        case UInt8(ascii: "A")...UInt8(ascii: "F") where !lowerCaseOnly: byte - UInt8(ascii: "A") + 10
        default: nil
        }
    }

    /// The lower-case digit of `nibble` (0 to 15).
    package static func lowerCase(_ nibble: UInt8) -> UInt8 {
        nibble < 10 ? UInt8(ascii: "0") + nibble : UInt8(ascii: "a") + nibble - 10
    }
}
