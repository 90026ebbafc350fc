import MemoStore

/// `stats`: totals, memos and words by month, the most used tags, the daily streaks and the
/// busiest weekday and hour, on the display time zone's calendar (docs/REFERENCE.md, Stats).
package struct MemoStatistics: Equatable, Sendable {
    /// Memos and words in one month, or over a whole stretch.
    package struct Tally: Equatable, Sendable {
        package var memos = 0
        package var words = 0
    }

    /// One month's tally: `YYYY-MM`.
    package struct Month: Equatable, Sendable {
        package var month: String
        package var tally = Tally()
    }

    /// Days in a row, each with a memo.
    package struct Streak: Equatable, Sendable {
        package var first: CivilDate
        package var last: CivilDate
        package var days: Int { last.daysSince1970 - first.daysSince1970 + 1 }
    }

    package var total = Tally()
    package var daysWithMemos = 0
    package var firstDay: CivilDate?
    package var lastDay: CivilDate?
    /// The months with memos, in order, `YYYY-MM`: a month without one is left out, so the
    /// table grows with the memos, not with the years between the first and the last.
    package var months: [Month] = []
    package var tags: [TagCount] = []
    /// The longest streak (the latest of the longest), nil without memos.
    package var longestStreak: Streak?
    /// The streak that ends today, or yesterday when today has no memo yet; nil for none.
    package var currentStreak: Streak?
    /// Memos by weekday, Monday first.
    package var weekdays = [Int](repeating: 0, count: 7)
    /// Memos by hour of the day, 0 to 23.
    package var hours = [Int](repeating: 0, count: 24)

    /// The index of the largest count (the first of equals), nil when all are 0.
    package static func busiest(_ counts: [Int]) -> Int? {
        guard let most = counts.max(), most > 0 else { return nil }
        return counts.firstIndex(of: most)
    }

    init(_ activity: DailyActivity, tags: [TagCount], today: CivilDate) {
        self.tags = tags
        hours = activity.hours
        let days = activity.days
        firstDay = days.first?.date
        lastDay = days.last?.date
        daysWithMemos = days.count
        var streak: Streak?
        for day in days {
            total.memos += day.memos
            total.words += day.words
            weekdays[day.date.weekday.rawValue] += day.memos
            let month = Self.monthName(day.date)
            if months.last?.month != month { months.append(Month(month: month)) }
            months[months.count - 1].tally.memos += day.memos
            months[months.count - 1].tally.words += day.words
            if let running = streak, running.last.daysSince1970 + 1 == day.date.daysSince1970 {
                streak?.last = day.date
            } else {
                streak = Streak(first: day.date, last: day.date)
            }
            if let streak, streak.days >= longestStreak?.days ?? 0 { longestStreak = streak }
            if let streak, day.date.daysSince1970 <= today.daysSince1970,
                day.date.daysSince1970 >= today.daysSince1970 - 1
            {
                currentStreak = streak
            }
        }
    }

    /// `YYYY-MM`: the date's text up to its last `-`, so year 10000 keeps its five digits.
    private static func monthName(_ date: CivilDate) -> String {
        let text = date.description
        return String(text[..<(text.lastIndex(of: "-") ?? text.endIndex)])
    }
}
