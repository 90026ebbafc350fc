import MemoStore

extension DateArgument {
    /// The one instant a back-dated memo takes: an instant as given; a date alone, that day
    /// at the time of day it is now (on the display time zone's wall clock).
    package func moment(now: Timestamp, in time: DisplayTime) -> Timestamp {
        switch self {
        case .instant, .now, .ago:
            return start(now: now, in: time)
        case .day, .today, .yesterday, .weekday:
            return time.shift(now, days: day(now: now, in: time).daysSince1970 - time.day(of: now).daysSince1970)
        }
    }
}
