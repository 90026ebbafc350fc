/// What a JSON text holds, measured in one pass without parsing it: how many values, how deep
/// they nest, and the top-level object's `id` when it is a plain number or string. Parsing
/// makes an object of every value (a message of 40 MB of `[1,1,1,…]` took 1.8 GB), and the
/// parser gives up on deep nesting without saying which request it was, so a message too
/// large or too deep is refused before it is parsed, and answered with its id when it has one.
struct JSONShape {
    /// How many values: separators and opening brackets outside strings (a string is one
    /// value, however long).
    private(set) var values = 0
    /// The deepest nesting of arrays and objects.
    private(set) var depth = 0
    /// The top-level object's `id`, if the text holds a plain one.
    private(set) var id: RequestID?

    init(of bytes: [UInt8]) {
        var level = 0, isInString = false, isEscaped = false
        var stringStart = 0
        /// A string of the top-level object that just ended, with only white space after it.
        var key: Range<Int>?
        var idValueStart: Int?
        for (index, byte) in bytes.enumerated() {
            if isInString {
                if isEscaped {
                    isEscaped = false
                } else if byte == UInt8(ascii: "\\") {
                    isEscaped = true
                } else if byte == UInt8(ascii: "\"") {
                    isInString = false
                    key = level == 1 ? stringStart..<index : nil
                }
                continue
            }
            switch byte {
            case UInt8(ascii: "\""):
                isInString = true
                stringStart = index + 1
            case UInt8(ascii: ":"):
                values += 1
                if idValueStart == nil, let key, bytes[key].elementsEqual("id".utf8) { idValueStart = index + 1 }
            case UInt8(ascii: ","):
                values += 1
            case UInt8(ascii: "["), UInt8(ascii: "{"):
                values += 1
                level += 1
                depth = max(depth, level)
            case UInt8(ascii: "]"), UInt8(ascii: "}"):
                level -= 1
            case 0x20, 0x09, 0x0A, 0x0D:
                continue
            default:
                break
            }
            key = nil
        }
        id = idValueStart.flatMap { Self.plainValue(in: bytes, from: $0) }
    }

    /// The number or string (without escapes) that starts at `start`, after white space.
    private static func plainValue(in bytes: [UInt8], from start: Int) -> RequestID? {
        guard let first = bytes[start...].firstIndex(where: { ![0x20, 0x09, 0x0A, 0x0D].contains($0) }) else { return nil }
        if bytes[first] == UInt8(ascii: "\"") {
            guard let end = bytes[(first + 1)...].firstIndex(where: { $0 == UInt8(ascii: "\"") || $0 == UInt8(ascii: "\\") }),
                  bytes[end] == UInt8(ascii: "\"") else { return nil }
            return .string(String(decoding: bytes[(first + 1)..<end], as: UTF8.self))
        }
        let digits = bytes[first...].prefix { $0 == UInt8(ascii: "-") || (UInt8(ascii: "0")...UInt8(ascii: "9")).contains($0) }
        let next = first + digits.count
        guard next == bytes.count || ![UInt8(ascii: "."), UInt8(ascii: "e"), UInt8(ascii: "E")].contains(bytes[next]),
              let number = Int64(String(decoding: digits, as: UTF8.self)) else { return nil }
        return .number(number)
    }
}
