import MemoStore

/// `calendar` as text: a column a week, a row a weekday (Monday first), each month's name
/// above the week of its 1st, a legend and a total. At most 54 weeks after a 4-column label:
/// 58 columns, so any year fits 80. Each day is a glyph of its heat level, coloured green
/// on a colour terminal (docs/REFERENCE.md, Calendar).
struct CalendarText {
    let year: CalendarYear
    let color: Bool

    /// The glyph of each level: none, then the four quartiles.
    static let glyphs: [Character] = ["·", "░", "▒", "▓", "█"]
    /// SGR colours of each level: dim, then greens from dim to bright bold.
    private static let colours = ["2", "2;32", "32", "92", "1;92"]
    private static let weekdayLabels = ["Mon", "Tue", "Wed", "Thu", "Fri", "Sat", "Sun"]
    private static let monthLabels = [
        "Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec"
    ]
    /// The columns before the first week: a weekday's label and a space.
    private static let labelWidth = 4

    var text: String {
        let levels = year.levels
        let lead = year.january1st.weekday.rawValue
        let weeks = (lead + year.counts.count + 6) / 7
        var lines = [monthLine(lead: lead, weeks: weeks)]
        for weekday in 0..<7 {
            var row = Self.weekdayLabels[weekday] + " "
            for week in 0..<weeks {
                let index = week * 7 + weekday - lead
                guard year.counts.indices.contains(index) else {
                    row += " "
                    continue
                }
                row += cell(year.level(of: year.counts[index], levels: levels))
            }
            lines.append(trimmed(row))
        }
        let shades =
            [cell(0) + " 0"]
            + levels.indices.compactMap { index in
                levels[index].map { cell(index + 1) + " " + Self.range($0) }
            }
        lines.append(String(repeating: " ", count: Self.labelWidth) + shades.joined(separator: "  "))
        let memos = year.total == 1 ? "memo" : "memos", days = year.daysWithMemos == 1 ? "day" : "days"
        lines.append(
            String(repeating: " ", count: Self.labelWidth)
                + "\(year.year): \(year.total) \(memos) on \(year.daysWithMemos) \(days)")
        return lines.joined(separator: "\n") + "\n"
    }

    /// The months' names, each above the week column of its 1st.
    private func monthLine(lead: Int, weeks: Int) -> String {
        var line = [Character](repeating: " ", count: Self.labelWidth + weeks + 3)
        let first = year.january1st.daysSince1970
        for month in 1...12 {
            let dayOfYear = CivilDate(year: year.year, month: month, day: 1).daysSince1970 - first
            let column = Self.labelWidth + (dayOfYear + lead) / 7
            line.replaceSubrange(column..<column + 3, with: Self.monthLabels[month - 1])
        }
        return trimmed(String(line))
    }

    private func cell(_ level: Int) -> String {
        let glyph = String(Self.glyphs[level])
        return color ? "\u{1B}[\(Self.colours[level])m\(glyph)\u{1B}[0m" : glyph
    }

    /// `3` or `3–5`.
    private static func range(_ range: ClosedRange<Int>) -> String {
        range.lowerBound == range.upperBound ? "\(range.lowerBound)" : "\(range.lowerBound)–\(range.upperBound)"
    }

    private func trimmed(_ line: String) -> String {
        String(line.reversed().drop { $0 == " " }.reversed())
    }
}
