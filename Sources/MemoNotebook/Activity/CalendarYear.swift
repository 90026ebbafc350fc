import MemoStore

/// `calendar`: memos a day over one year of the display time zone, and the heat levels
/// that shade them (docs/REFERENCE.md, Calendar).
package struct CalendarYear: Equatable, Sendable {
    package var year: Int
    /// Memos on each day of the year, January 1st first.
    package var counts: [Int]

    init(year: Int, days: [DailyActivity.Day]) {
        self.year = year
        let first = CivilDate(year: year, month: 1, day: 1).daysSince1970
        counts = [Int](repeating: 0, count: CivilDate(year: year + 1, month: 1, day: 1).daysSince1970 - first)
        for day in days where counts.indices.contains(day.date.daysSince1970 - first) {
            counts[day.date.daysSince1970 - first] += day.memos
        }
    }

    package var january1st: CivilDate { CivilDate(year: year, month: 1, day: 1) }
    package var total: Int { counts.reduce(0, +) }
    package var daysWithMemos: Int { counts.filter { $0 > 0 }.count }

    /// The counts each level 1 to 4 shades, by the quartiles of the year's days with memos:
    /// level 1 up to the first quartile, 2 up to the median, 3 up to the third quartile, 4
    /// above it. A level no count falls in is empty (nil): in a year of one memo a day, every
    /// such day is level 1.
    package var levels: [ClosedRange<Int>?] {
        let busy = counts.filter { $0 > 0 }.sorted()
        guard let busiest = busy.last else { return [nil, nil, nil, nil] }
        let bounds = (1...3).map { busy[(busy.count * $0 + 3) / 4 - 1] } + [busiest]
        var low = 1
        return bounds.map { high in
            defer { low = max(low, high + 1) }
            return low <= high ? low...high : nil
        }
    }

    /// The level (0 for none, then 1 to 4) of `count` memos on a day.
    package func level(of count: Int, levels: [ClosedRange<Int>?]) -> Int {
        guard count > 0 else { return 0 }
        return (levels.firstIndex { $0.map { count <= $0.upperBound } ?? false } ?? 3) + 1
    }
}
