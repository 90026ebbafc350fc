import MemoStore

/// `stats` as text: the totals and the streaks, the busiest weekday and hour, then a table of
/// months and one of tags (docs/REFERENCE.md, Stats).
struct StatisticsText {
    let statistics: MemoStatistics

    static let weekdayNames = ["Monday", "Tuesday", "Wednesday", "Thursday", "Friday", "Saturday", "Sunday"]

    var text: String {
        let stats = statistics
        var rows: [(String, String)] = [("memos", "\(stats.total.memos)"), ("words", "\(stats.total.words)")]
        let span = stats.firstDay.flatMap { first in stats.lastDay.map { " (\(first) to \($0))" } }
        rows.append(("days", "\(stats.daysWithMemos)" + (span ?? "")))
        rows.append(("longest streak", Self.streak(stats.longestStreak)))
        rows.append(("current streak", Self.streak(stats.currentStreak)))
        rows.append(
            (
                "busiest weekday",
                MemoStatistics.busiest(stats.weekdays).map {
                    "\(Self.weekdayNames[$0]) (\(Self.memos(stats.weekdays[$0])))"
                }
                    ?? "none"
            ))
        rows.append(
            (
                "busiest hour",
                MemoStatistics.busiest(stats.hours).map { "\(Self.twoDigits($0)):00 (\(Self.memos(stats.hours[$0])))" }
                    ?? "none"
            ))
        var text = rows.map { $0.0.paddedWithSpaces(toLength: 17) + $0.1 + "\n" }.joined()
        if !stats.months.isEmpty {
            text +=
                "\n"
                + Self.table(
                    ["month", "memos", "words"],
                    stats.months.map { [$0.month, "\($0.tally.memos)", "\($0.tally.words)"] })
        }
        if !stats.tags.isEmpty {
            text += "\n" + Self.table(["tag", "memos"], stats.tags.map { ["@" + $0.name, "\($0.count)"] })
        }
        return text
    }

    /// `12 days (2026-03-01 to 2026-03-12)`, or `0 days`.
    private static func streak(_ streak: MemoStatistics.Streak?) -> String {
        guard let streak else { return "0 days" }
        return "\(streak.days) day\(streak.days == 1 ? "" : "s") (\(streak.first) to \(streak.last))"
    }

    private static func memos(_ count: Int) -> String { "\(count) memo\(count == 1 ? "" : "s")" }

    private static func twoDigits(_ number: Int) -> String { (number < 10 ? "0" : "") + String(number) }

    /// Rows under a heading, the first column left-aligned, the numbers right-aligned.
    private static func table(_ heading: [String], _ rows: [[String]]) -> String {
        let all = [heading] + rows
        let widths = heading.indices.map { column in all.map { DisplayWidth.of($0[column]) }.max() ?? 0 }
        return all.map { row in
            row.indices.map { column in
                let padding = String(repeating: " ", count: widths[column] - DisplayWidth.of(row[column]))
                return column == 0 ? row[column] + padding : "  " + padding + row[column]
            }.joined() + "\n"
        }.joined()
    }
}
