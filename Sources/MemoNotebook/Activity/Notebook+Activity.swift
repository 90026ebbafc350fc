import MemoStore

/// `calendar` and `stats`: the store counts the filter's memos by local hour in one
/// statement (`MemoStore.hourlyActivity`); days, months, weekdays and streaks are summed
/// from those few thousand counts here.
extension Notebook {
    /// How many tags `stats` lists.
    static let statisticsTagCount = 10

    func calendar(_ arguments: CalendarArguments) throws(StoreError) -> CalendarYear {
        let year = arguments.year ?? displayTime.day(of: clock.current).year
        var filter = resolve(arguments.filter)
        let start = displayTime.startOfDay(CivilDate(year: year, month: 1, day: 1))
        let end = displayTime.startOfDay(CivilDate(year: year + 1, month: 1, day: 1))
        let since = max(filter.since ?? start, start), before = min(filter.before ?? end, end)
        filter.since = since
        filter.before = before
        let hourly =
            since < before
            ? try store.hourlyActivity(
                filter, offsets: displayTime.offsetChanges(from: start, to: end), countingWords: false) : []
        return CalendarYear(year: year, days: DailyActivity(hourly).days)
    }

    func statistics(_ arguments: FilterArguments) throws(StoreError) -> MemoStatistics {
        let filter = resolve(arguments)
        let today = displayTime.day(of: clock.current)
        guard let span = try store.insertDateSpan(filter) else {
            return MemoStatistics(DailyActivity([]), tags: [], today: today)
        }
        let hourly = try store.hourlyActivity(
            filter, offsets: displayTime.offsetChanges(from: span.lowerBound, to: span.upperBound), countingWords: true)
        return MemoStatistics(
            DailyActivity(hourly), tags: try store.mostUsedTags(filter, limit: Self.statisticsTagCount), today: today)
    }
}

extension CivilDate {
    /// `YYYY-MM-DD`.
    package var isoText: String {
        func padded(_ number: Int, _ digits: Int) -> String {
            let text = String(number)
            return String(repeating: "0", count: max(0, digits - text.count)) + text
        }
        return padded(year, 4) + "-" + padded(month, 2) + "-" + padded(day, 2)
    }
}
