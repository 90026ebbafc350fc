import MemoStore

extension DateArgument {
    /// The one instant a back-dated memo takes: an instant as given; a date with a time of day,
    /// that time; a date alone (a day, `yesterday`, `monday`, `3 days ago` without time…), that
    /// day at the time of day it is now in the display time zone.
    /// A period (`last week`) takes its first day at the time of day it is now.
    package func moment(now: Timestamp, in time: DisplayTime) -> Timestamp {
        instant(now: now, in: time)
            ?? time.instant(on: day(now: now, in: time), atMillisecond: time.millisecondsIntoDay(now))
    }
}
