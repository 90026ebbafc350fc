import MemoStore

/// Memos and words by local day, summed from the store's hourly counts, in day order.
struct DailyActivity {
    struct Day: Equatable {
        var date: CivilDate
        var memos: Int
        var words: Int
    }

    private(set) var days: [Day] = []
    /// Memos by hour of the day on the wall clock, 0 to 23.
    private(set) var hours = [Int](repeating: 0, count: 24)

    init(_ hourly: [HourActivity]) {
        var dayNumber: Int64?
        for hour in hourly {
            let number = floorDivide(hour.localHour, 24)
            hours[Int(hour.localHour - number * 24)] += hour.memos
            if number == dayNumber, let last = days.indices.last {
                days[last].memos += hour.memos
                days[last].words += hour.words
            } else {
                days.append(Day(date: CivilDate(daysSince1970: Int(number)), memos: hour.memos, words: hour.words))
                dayNumber = number
            }
        }
    }
}
