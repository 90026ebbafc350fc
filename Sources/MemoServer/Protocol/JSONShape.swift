import FoundationEssentials

/// What a JSON text holds, measured in one pass without parsing it: how many values, how deep
/// they nest, the top-level object's `id` when it is a plain number or string, and its
/// `method` and the first `uri` in it when they are plain strings. Parsing
/// makes an object of every value (a message of 40 MB of `[1,1,1,…]` took 1.8 GB), and the
/// parser gives up on deep nesting without saying which request it was, so a message too
/// large or too deep is refused before it is parsed, and answered with its id when it has one;
/// the method and uri say which document a refused change was to.
struct JSONShape {
    /// How many values: separators and opening brackets outside strings (a string is one
    /// value, however long).
    private(set) var values = 0
    /// The deepest nesting of arrays and objects.
    private(set) var depth = 0
    /// The top-level object's `id`, if the text holds a plain one.
    private(set) var id: RequestID?
    /// The top-level object's `method`, if the text holds a plain one.
    private(set) var method: String?
    /// The first `uri` member's value, at any depth, if it is a plain string.
    private(set) var uri: String?

    init(of bytes: [UInt8]) {
        var level = 0, isInString = false, isEscaped = false
        var stringStart = 0
        /// A string that just ended, with only white space after it, and its level.
        var key: (range: Range<Int>, level: Int)?
        var idValueStart: Int?, methodValueStart: Int?, uriValueStart: Int?
        for (index, byte) in bytes.enumerated() {
            if isInString {
                if isEscaped {
                    isEscaped = false
                } else if byte == UInt8(ascii: "\\") {
                    isEscaped = true
                } else if byte == UInt8(ascii: "\"") {
                    isInString = false
                    key = (stringStart..<index, level)
                }
                continue
            }
            switch byte {
            case UInt8(ascii: "\""):
                isInString = true
                stringStart = index + 1
            case UInt8(ascii: ":"):
                values += 1
                if let key {
                    let name = bytes[key.range]
                    if key.level == 1, idValueStart == nil, name.elementsEqual("id".utf8) { idValueStart = index + 1 }
                    if key.level == 1, methodValueStart == nil, name.elementsEqual("method".utf8) {
                        methodValueStart = index + 1
                    }
                    if uriValueStart == nil, name.elementsEqual("uri".utf8) { uriValueStart = index + 1 }
                }
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
        method = methodValueStart.flatMap { Self.plainString(in: bytes, from: $0) }
        uri = uriValueStart.flatMap { Self.plainString(in: bytes, from: $0) }
    }

    /// The number or string that starts at `start`, after white space.
    private static func plainValue(in bytes: [UInt8], from start: Int) -> RequestID? {
        if let string = plainString(in: bytes, from: start) { return .string(string) }
        guard let first = bytes[start...].firstIndex(where: { ![0x20, 0x09, 0x0A, 0x0D].contains($0) }) else {
            return nil
        }
        let digits = bytes[first...].prefix {
            $0 == UInt8(ascii: "-") || (UInt8(ascii: "0")...UInt8(ascii: "9")).contains($0)
        }
        let next = first + digits.count
        guard next == bytes.count || ![UInt8(ascii: "."), UInt8(ascii: "e"), UInt8(ascii: "E")].contains(bytes[next]),
            let number = Int64(String(decoding: digits, as: UTF8.self))
        else { return nil }
        return .number(number)
    }

    /// The string that starts at `start`, after white space, escapes decoded.
    private static func plainString(in bytes: [UInt8], from start: Int) -> String? {
        guard let first = bytes[start...].firstIndex(where: { ![0x20, 0x09, 0x0A, 0x0D].contains($0) }),
            bytes[first] == UInt8(ascii: "\"")
        else { return nil }
        var isEscaped = false
        for index in (first + 1)..<bytes.count {
            if isEscaped {
                isEscaped = false
            } else if bytes[index] == UInt8(ascii: "\\") {
                isEscaped = true
            } else if bytes[index] == UInt8(ascii: "\"") {
                return try? JSONDecoder().decode(String.self, from: Data(bytes[first...index]))
            }
        }
        return nil
    }
}
