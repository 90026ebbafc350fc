/// A time on the wall clock, as typed after a day or alone: `21:30`, `9pm`, `9:30am`,
/// `noon`, `midnight` (the start of the day).
package struct TimeOfDay: Equatable, Sendable {
    package var hour: Int
    package var minute: Int
    package var second = 0

    package init(hour: Int, minute: Int, second: Int = 0) {
        self.hour = hour
        self.minute = minute
        self.second = second
    }

    var milliseconds: Int64 {
        Int64((hour * 60 + minute) * 60 + second) * 1000
    }

    /// Reads one lower-case word: `H:MM[:SS]` on a 24-hour clock, or `H[:MM]am`/`pm` on a
    /// 12-hour one (`12am` is midnight, `12pm` noon).
    init?(_ word: Substring) {
        switch word {
        case "noon": self.init(hour: 12, minute: 0)
        case "midnight": self.init(hour: 0, minute: 0)
        default:
            var text = word
            var afternoon: Bool?
            if text.hasSuffix("am") || text.hasSuffix("pm") {
                afternoon = text.hasSuffix("pm")
                text = text.dropLast(2)
            }
            let fields = text.split(separator: ":", omittingEmptySubsequences: false)
            guard (1...3).contains(fields.count), afternoon != nil || fields.count > 1,
                fields[0].count <= 2, fields.dropFirst().allSatisfy({ $0.count == 2 }),
                let numbers = Self.numbers(fields)
            else { return nil }
            var hour = numbers[0]
            let minute = numbers.count > 1 ? numbers[1] : 0, second = numbers.count > 2 ? numbers[2] : 0
            if let afternoon {
                guard (1...12).contains(hour), numbers.count <= 2 else { return nil }
                hour = hour % 12 + (afternoon ? 12 : 0)
            }
            guard hour < 24, minute < 60, second < 60 else { return nil }
            self.init(hour: hour, minute: minute, second: second)
        }
    }

    /// The fields as numbers, when each is ASCII digits.
    private static func numbers(_ fields: [Substring]) -> [Int]? {
        var numbers: [Int] = []
        for field in fields {
            guard !field.isEmpty, field.allSatisfy({ $0.isASCII && $0.isNumber }), let number = Int(field) else {
                return nil
            }
            numbers.append(number)
        }
        return numbers
    }
}
