import MemoStore

/// The dates other tools write in their files: jrnl's `date` and `time`, and the front
/// matter `date:`/`created:` of zk, nb and Obsidian notes. A date and time without a zone
/// is on the display time zone's wall clock, as those tools mean it, and read as `add --date`
/// reads one (`DisplayTime.instant(on:atMillisecond:)`: a time summer time skips lands past
/// the change, one shown twice is the first).
enum SourceDate {
    /// `YYYY-MM-DD` (the start of that day), `YYYY-MM-DD HH:MM[:SS]` or the same with a `T`
    /// (local), or an ISO 8601 instant with its zone; nil for anything else.
    static func instant(_ text: String, in time: DisplayTime) -> Timestamp? {
        switch try? DateArgument.parse(Word(text: text, isLiteral: true)) {
        case .instant(let instant)?: return instant
        case .day(let day)?: return time.startOfDay(day)
        default: break
        }
        guard text.utf8.count > 11, let separator = text.dropFirst(10).first, separator == " " || separator == "T",
            case .day(let day)? = try? DateArgument.parse(Word(text: String(text.prefix(10)), isLiteral: true)),
            let milliseconds = millisecondsIntoDay(text.dropFirst(11))
        else { return nil }
        return time.instant(on: day, atMillisecond: milliseconds)
    }

    /// `HH:MM` or `HH:MM:SS` as milliseconds after midnight.
    static func millisecondsIntoDay(_ text: Substring) -> Int64? {
        let fields = text.split(separator: ":", omittingEmptySubsequences: false)
        guard (2...3).contains(fields.count), fields.allSatisfy({ $0.count == 2 && $0.allSatisfy(\.isASCII) }),
            let hour = Int(fields[0]), let minute = Int(fields[1]), hour < 24, minute < 60
        else { return nil }
        let second = fields.count == 3 ? Int(fields[2]) : 0
        guard let second, second < 60 else { return nil }
        return Int64((hour * 60 + minute) * 60 + second) * 1000
    }
}
