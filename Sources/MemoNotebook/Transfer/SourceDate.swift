import MemoStore

/// The dates other tools write in their files: jrnl's `date` and `time`, and the front
/// matter `date:`/`created:` of zk, nb and Obsidian notes. A date and time without a zone
/// is on the display time zone's wall clock, as those tools mean it.
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
        return wallClock(day, milliseconds, in: time)
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

    /// The instant the wall clock of `time` shows `milliseconds` into `day`. Counting from
    /// the start of the day is an hour off after a daylight-saving change on that day; the
    /// clock read back at that instant tells by how much.
    static func wallClock(_ day: CivilDate, _ milliseconds: Int64, in time: DisplayTime) -> Timestamp {
        let guess = time.startOfDay(day).adding(milliseconds: milliseconds)
        let shown = time.format(guess)
        guard case .day(let shownDay)? = try? DateArgument.parse(Word(text: String(shown.prefix(10)), isLiteral: true)),
            let shownMilliseconds = millisecondsIntoDay(shown.dropFirst(11))
        else { return guess }
        let drift =
            Int64(shownDay.daysSince1970 - day.daysSince1970) * 86_400_000 + shownMilliseconds - milliseconds
        return guess.adding(milliseconds: -drift)
    }
}
