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

    /// `moment`, refused when it falls outside the years memo keeps, which it counts in UTC
    /// (`0001-01-01 00:00` in Tokyo is still year 0 there): the date of `add --date` and
    /// `edit ID --date`, as the command line and the server's diagnostics check it.
    package func backdatedMoment(now: Timestamp, in time: DisplayTime) throws(CommandError) -> Timestamp {
        let moment = moment(now: now, in: time)
        guard Timestamp.representable.contains(moment) else {
            throw .invalid(
                "invalid date '\(self)' for '--date': it falls outside the years 0001 to 9999, which memo counts in UTC"
            )
        }
        return moment
    }
}
