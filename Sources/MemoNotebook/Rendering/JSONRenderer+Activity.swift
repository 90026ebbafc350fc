import MemoStore

/// The objects of `calendar` and `stats` (docs/REFERENCE.md, Calendar and Stats).
extension JSONRenderer {
    /// `calendar`'s object: `{"year","total","daysWithMemos","levels","days"}`.
    static func json(_ year: CalendarYear) -> JSONValue {
        let levels = year.levels
        let first = year.january1st
        return .object([
            ("year", .integer(Int64(year.year))),
            ("total", .integer(Int64(year.total))),
            ("daysWithMemos", .integer(Int64(year.daysWithMemos))),
            (
                "levels",
                .array(
                    levels.indices.compactMap { index in
                        levels[index].map { range in
                            .object([
                                ("level", .integer(Int64(index + 1))), ("from", .integer(Int64(range.lowerBound))),
                                ("to", .integer(Int64(range.upperBound)))
                            ])
                        }
                    })
            ),
            (
                "days",
                .array(
                    year.counts.indices.filter { year.counts[$0] > 0 }.map { index in
                        .object([
                            ("date", .string(first.adding(days: index).description)),
                            ("count", .integer(Int64(year.counts[index])))
                        ])
                    })
            )
        ])
    }

    /// `stats`'s object (docs/REFERENCE.md, Stats).
    static func json(_ stats: MemoStatistics) -> JSONValue {
        func streak(_ streak: MemoStatistics.Streak?) -> JSONValue {
            streak.map {
                .object([
                    ("days", .integer(Int64($0.days))), ("from", .string($0.first.description)),
                    ("to", .string($0.last.description))
                ])
            } ?? .null
        }
        func counts(_ values: [Int]) -> JSONValue { .array(values.map { .integer(Int64($0)) }) }
        return .object([
            ("memos", .integer(Int64(stats.total.memos))),
            ("words", .integer(Int64(stats.total.words))),
            ("days", .integer(Int64(stats.daysWithMemos))),
            ("firstDay", stats.firstDay.map { .string($0.description) } ?? .null),
            ("lastDay", stats.lastDay.map { .string($0.description) } ?? .null),
            (
                "months",
                .array(
                    stats.months.map {
                        .object([
                            ("month", .string($0.month)), ("memos", .integer(Int64($0.tally.memos))),
                            ("words", .integer(Int64($0.tally.words)))
                        ])
                    })
            ),
            ("tags", .array(stats.tags.map(json))),
            ("longestStreak", streak(stats.longestStreak)),
            ("currentStreak", streak(stats.currentStreak)),
            (
                "busiestWeekday",
                MemoStatistics.busiest(stats.weekdays).map { .string(StatisticsText.weekdayNames[$0].lowercased()) }
                    ?? .null
            ),
            ("busiestHour", MemoStatistics.busiest(stats.hours).map { .integer(Int64($0)) } ?? .null),
            ("weekdays", counts(stats.weekdays)),
            ("hours", counts(stats.hours))
        ])
    }
}
