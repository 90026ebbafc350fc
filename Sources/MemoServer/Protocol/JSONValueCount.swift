/// How many values a JSON text holds, counted in one pass without parsing it. Parsing
/// makes an object of every value: a message of 40 MB of `[1,1,1,…]` took 1.8 GB, so a
/// message with too many values is refused before it is parsed.
enum JSONValueCount {
    /// Whether `bytes` holds more than `limit` values, counted by the separators and brackets
    /// outside strings (a string is one value, however long).
    static func exceeds(_ limit: Int, in bytes: [UInt8]) -> Bool {
        var count = 0, isInString = false, isEscaped = false
        for byte in bytes {
            if isInString {
                if isEscaped {
                    isEscaped = false
                } else if byte == UInt8(ascii: "\\") {
                    isEscaped = true
                } else if byte == UInt8(ascii: "\"") {
                    isInString = false
                }
                continue
            }
            switch byte {
            case UInt8(ascii: "\""):
                isInString = true
            case UInt8(ascii: ","), UInt8(ascii: ":"), UInt8(ascii: "["), UInt8(ascii: "{"):
                count += 1
                if count > limit { return true }
            default:
                break
            }
        }
        return false
    }
}
