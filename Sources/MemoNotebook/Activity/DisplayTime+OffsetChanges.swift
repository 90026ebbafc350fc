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
            // The offset at `low` is the old one, at `high` another: the change lies between.
            var low = second, high = next
            while high - low > 1 {
                let middle = low + (high - low) / 2
                if utcOffsetSeconds(at: middle) == offset { low = middle } else { high = middle }
            }
            offset = utcOffsetSeconds(at: high)
            changes.append(UTCOffsetChange(start: Timestamp(secondsSince1970: high), offsetSeconds: offset))
            second = high
        }
        return changes
    }
}
