/// Reads the fixed-width numeric fields of ISO 8601 dates.
struct DigitScanner {
    /// The text's UTF-8 bytes: every character of the forms is ASCII, so a byte is a character.
    private let bytes: [UInt8]
    private var index = 0

    init(_ text: Substring) {
        var text = text
        bytes = text.withUTF8 { Array($0) } // copied from the storage: `Array(text.utf8)` walks a view
    }

    var isAtEnd: Bool { index == bytes.count }

    /// Consumes `character` if it comes next. A scalar, not a `Character`: comparing a byte
    /// with a `Character`'s ASCII value took most of an import's date reading.
    mutating func skip(_ character: Unicode.Scalar) -> Bool {
        guard index < bytes.count, UInt32(bytes[index]) == character.value else { return false }
        index += 1
        return true
    }

    mutating func number(digits: Int) -> Int? {
        guard index + digits <= bytes.count else { return nil }
        var value = 0
        for byte in bytes[index..<index + digits] {
            guard byte >= UInt8(ascii: "0"), byte <= UInt8(ascii: "9") else { return nil }
            value = value * 10 + Int(byte - UInt8(ascii: "0"))
        }
        index += digits
        return value
    }

    /// `YYYY-MM-DD`, checked against the calendar.
    mutating func date() -> CivilDate? {
        guard let year = number(digits: 4), skip("-"), let month = number(digits: 2), skip("-"),
            let day = number(digits: 2)
        else { return nil }
        let date = CivilDate(year: year, month: month, day: day)
        return date.isValid ? date : nil
    }

    /// `HH:MM[:SS[.sss]]` as milliseconds into the day.
    mutating func timeOfDay() -> Int64? {
        guard let hour = number(digits: 2), hour < 24, skip(":"), let minute = number(digits: 2), minute < 60
        else { return nil }
        var second = 0, millisecond = 0
        if skip(":") {
            guard let value = number(digits: 2), value < 60 else { return nil }
            second = value
            if skip(".") {
                guard let value = fraction() else { return nil }
                millisecond = value
            }
        }
        return Int64(((hour * 60 + minute) * 60 + second) * 1000 + millisecond)
    }

    /// The digits after a decimal point as milliseconds: `.9` is 900, `.25` 250; digits past
    /// the third are cut, as memo keeps time to the millisecond.
    mutating func fraction() -> Int? {
        var milliseconds = 0, digits = 0
        while index < bytes.count, bytes[index] >= UInt8(ascii: "0"), bytes[index] <= UInt8(ascii: "9") {
            if digits < 3 { milliseconds = milliseconds * 10 + Int(bytes[index] - UInt8(ascii: "0")) }
            digits += 1
            index += 1
        }
        guard digits > 0 else { return nil }
        for _ in digits..<max(digits, 3) { milliseconds *= 10 }
        return milliseconds
    }

    /// `Z` or `±HH:MM`, as seconds east of UTC.
    mutating func zoneOffset() -> Int64? {
        if skip("Z") || skip("z") { return 0 }
        let sign: Int64
        if skip("+") { sign = 1 } else if skip("-") { sign = -1 } else { return nil }
        guard let hours = number(digits: 2), hours <= 23, skip(":"), let minutes = number(digits: 2), minutes < 60
        else { return nil }
        return sign * Int64(hours * 3600 + minutes * 60)
    }
}
