import MemoStore

extension DisplayTime {
    /// The UTC offsets in force from `start` to `end`, each with the second it begins (the
    /// first at `start`): what `memo_activity` needs to put each memo in its local hour.
    /// The offset is looked at once a day and a change is found to the second between two
    /// looks; a zone that changes offset twice within a day and comes back is read as not
    /// changing (no zone has done so).
    func offsetChanges(from start: Timestamp, to end: Timestamp) -> [UTCOffsetChange] {
        var second = floorDivide(start.millisecondsSince1970, 1000)
        let last = floorDivide(end.millisecondsSince1970, 1000)
        var offset = utcOffsetSeconds(at: second)
        var changes = [UTCOffsetChange(start: Timestamp(secondsSince1970: second), offsetSeconds: offset)]
        while second < last {
            let next = min(second + 86_400, last)
            guard utcOffsetSeconds(at: next) != offset else {
                second = next
                continue
            }
            second = firstSecond(after: second, upTo: next, awayFrom: offset)
            offset = utcOffsetSeconds(at: second)
            changes.append(UTCOffsetChange(start: Timestamp(secondsSince1970: second), offsetSeconds: offset))
        }
        return changes
    }

    /// The UTC offsets in force within each of `hours` (whole UTC hours since 1970, in order),
    /// looked at twice an hour whatever lies between them: the offset at an hour's start
    /// when it differs from the last one listed, and a change within the hour to the second.
    /// Between the hours the list may be wrong, which no memo there is to notice; as with
    /// `offsetChanges(from:to:)`, an hour is taken to hold one change at most.
    func offsetChanges(inHours hours: [Int64]) -> [UTCOffsetChange] {
        var changes: [UTCOffsetChange] = []
        for hour in hours {
            let start = hour * 3600, last = start + 3599
            let offset = utcOffsetSeconds(at: start)
            if changes.last?.offsetSeconds != offset {
                changes.append(UTCOffsetChange(start: Timestamp(secondsSince1970: start), offsetSeconds: offset))
            }
            if utcOffsetSeconds(at: last) != offset {
                let second = firstSecond(after: start, upTo: last, awayFrom: offset)
                changes.append(
                    UTCOffsetChange(
                        start: Timestamp(secondsSince1970: second), offsetSeconds: utcOffsetSeconds(at: second)))
            }
        }
        return changes
    }

    /// The first second after `low` and up to `high` whose offset is not `offset`, found by
    /// halving: the offset at `low` is `offset`, at `high` another.
    private func firstSecond(after low: Int64, upTo high: Int64, awayFrom offset: Int) -> Int64 {
        var low = low, high = high
        while high - low > 1 {
            let middle = low + (high - low) / 2
            if utcOffsetSeconds(at: middle) == offset { low = middle } else { high = middle }
        }
        return high
    }
}
