import MemoStore

extension DateArgument {
    /// The first instant this argument covers: where `--since` starts.
    func start(now: Timestamp, in time: DisplayTime) -> Timestamp {
        instant(now: now, in: time) ?? time.startOfDay(day(now: now, in: time))
    }

    /// The first instant after what this argument covers, where `--until` ends: the day after
    /// a day or a period, the next millisecond after an instant.
    func end(now: Timestamp, in time: DisplayTime) -> Timestamp {
        instant(now: now, in: time)?.adding(milliseconds: 1) ?? wholeDays(now: now, in: time).upperBound
    }

    /// The whole days this argument falls on, as `--on` takes them: an instant's day, a
    /// day, or every day of a period.
    func wholeDays(now: Timestamp, in time: DisplayTime) -> Range<Timestamp> {
        let first = day(now: now, in: time)
        let last: CivilDate
        switch self {
        case .period(_, .week): last = first.adding(days: 6)
        case .period(_, .month): last = first.adding(months: 1).adding(days: -1)
        case .period(_, .year): last = CivilDate(year: first.year, month: 12, day: 31)
        default: last = first
        }
        return time.startOfDay(first)..<time.startOfDay(last.adding(days: 1))
    }

    /// The calendar day meant, or a period's first day: an instant means the day it falls on.
    func day(now: Timestamp, in time: DisplayTime) -> CivilDate {
        if let instant = instant(now: now, in: time) { return time.day(of: instant) }
        let today = time.day(of: now)
        let weekday = today.weekday.rawValue
        switch self {
        case .day(let date): return date
        case .yesterday: return today.adding(days: -1)
        case .tomorrow: return today.adding(days: 1)
        case .weekday(let named): return today.adding(days: -((weekday - named.rawValue + 7) % 7))
        case .relativeWeekday(.last, let named): return today.adding(days: -((weekday - named.rawValue + 6) % 7 + 1))
        case .relativeWeekday(.this, let named): return today.adding(days: named.rawValue - weekday)
        case .relativeWeekday(.next, let named): return today.adding(days: (named.rawValue - weekday + 6) % 7 + 1)
        case .period(let relation, .week): return today.adding(days: 7 * relation.offset - weekday)
        case .period(let relation, .month):
            return CivilDate(year: today.year, month: today.month, day: 1).adding(months: relation.offset)
        case .period(let relation, .year): return CivilDate(year: today.year + relation.offset, month: 1, day: 1)
        default: return today
        }
    }

    /// The one instant meant, or nil for a whole day or period. An age keeps the wall-clock
    /// time, and one in months or years the day of the month, or the month's last day when it
    /// is shorter (`1m` on March 31 is February 28 or 29).
    func instant(now: Timestamp, in time: DisplayTime) -> Timestamp? {
        switch self {
        case .instant(let instant): return instant
        case .now: return now
        case .ago(let count, .days): return time.shift(now, days: -count)
        case .ago(let count, .weeks): return time.shift(now, days: -7 * count)
        case .ago(let count, .months): return time.shift(now, months: -count)
        case .ago(let count, .years): return time.shift(now, months: -12 * count)
        case .at(let date, let timeOfDay):
            return time.instant(on: date.day(now: now, in: time), atMillisecond: timeOfDay.milliseconds)
        default: return nil
        }
    }
}

extension DateArgument.Relation {
    /// How many weeks, months or years from this one.
    fileprivate var offset: Int {
        switch self {
        case .last: -1
        case .this: 0
        case .next: 1
        }
    }
}
