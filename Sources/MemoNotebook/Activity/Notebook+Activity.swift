import MemoStore

/// `calendar` and `stats`: the store counts the filter's memos by local hour in one
/// statement (`MemoStore.hourlyActivity`); days, months, weekdays and streaks are summed
/// from those few thousand counts here.
extension Notebook {
    /// How many tags `stats` lists.
    static let statisticsTagCount = 10

    func calendar(_ arguments: CalendarArguments) throws -> CalendarYear {
        let year = arguments.year ?? displayTime.day(of: clock.current).year
        var filter = try resolve(arguments.filter)
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

    func statistics(_ arguments: FilterArguments) throws -> MemoStatistics {
        let filter = try resolve(arguments)
        let today = displayTime.day(of: clock.current)
        guard let span = try store.insertDateSpan(filter) else {
            return MemoStatistics(DailyActivity([]), tags: [], today: today)
        }
        let hourly = try store.hourlyActivity(
            filter, offsets: try offsetChanges(filter, over: span), countingWords: true)
        return MemoStatistics(
            DailyActivity(hourly), tags: try store.mostUsedTags(filter, limit: Self.statisticsTagCount), today: today)
    }

    /// Spans up to this long (twenty years, in milliseconds) have the zone's offsets looked
    /// up once a day: some 7,300 looks, a few milliseconds.
    static let dailyOffsetSpan: Int64 = 20 * 366 * 86_400_000

    /// The zone's offsets wherever the memos `filter` selects lie, from the first, `span`'s
    /// lower bound, to the last. Looking once a day takes as long as the span is (two memos
    /// 8,000 years apart: 2.9 million looks), so over a longer span the memos' UTC hours are
    /// read first (from the insert-date index, no text) and the offsets looked up in them:
    /// the work then grows with the memos, not with the years between them.
    private func offsetChanges(
        _ filter: MemoFilter, over span: ClosedRange<Timestamp>
    ) throws(StoreError)
        -> [UTCOffsetChange]
    {
        guard span.upperBound.millisecondsSince1970 - span.lowerBound.millisecondsSince1970 > Self.dailyOffsetSpan
        else { return displayTime.offsetChanges(from: span.lowerBound, to: span.upperBound) }
        let utc = [UTCOffsetChange(start: span.lowerBound, offsetSeconds: 0)]
        let hours = try store.hourlyActivity(filter, offsets: utc, countingWords: false)
        return displayTime.offsetChanges(inHours: hours.map(\.localHour))
    }
}
