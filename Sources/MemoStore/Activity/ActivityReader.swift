/// Memos and their words in one hour of the display time zone's wall clock.
package struct HourActivity: Equatable, Sendable {
    /// Whole hours since 1970-01-01 00:00 on the wall clock (not UTC).
    package var localHour: Int64
    package var memos: Int
    package var words: Int

    package init(localHour: Int64, memos: Int, words: Int) {
        self.localHour = localHour
        self.memos = memos
        self.words = words
    }
}

/// From `start` on (until the next change), the display time zone's wall clock is
/// `offsetSeconds` ahead of UTC. The first change also holds before its start.
package struct UTCOffsetChange: Equatable, Sendable {
    package var start: Timestamp
    package var offsetSeconds: Int

    package init(start: Timestamp, offsetSeconds: Int) {
        self.start = start
        self.offsetSeconds = offsetSeconds
    }

    /// The changes as `memo_activity` reads them: start and offset in milliseconds, apart by spaces.
    static func sqlArgument(_ changes: [UTCOffsetChange]) -> String {
        changes.map { "\($0.start.millisecondsSince1970) \(Int64($0.offsetSeconds) * 1000)" }.joined(separator: " ")
    }
}

/// The reads of `calendar` and `stats`: memos counted by local hour, the span of their
/// insert dates, their most used tags. Each is one statement over the filter's memos,
/// aggregated inside SQLite (`ActivityAggregate`), so a million memos take a fraction of a
/// second and no memory a memo.
struct ActivityReader {
    let database: Database

    /// The memos `filter` selects counted by local hour (and their words when `countingWords`,
    /// as their rows keep them). A filter with dates reads the insert-date index's range, and
    /// nothing else: the index holds each memo's word count.
    func hourlyActivity(
        _ filter: MemoFilter, offsets: [UTCOffsetChange], countingWords: Bool
    ) throws(StoreError) -> [HourActivity] {
        try StoreError.wrapping {
            let (sql, values) = Self.activityStatement(filter, offsets: offsets, countingWords: countingWords)
            return try database.cached(sql).firstRow(values) { row in
                row.withBytes(at: 0) { ActivityAggregate.hours(in: $0) }
            } ?? []
        }
    }

    /// The statement of `hourlyActivity` and its values.
    static func activityStatement(
        _ filter: MemoFilter, offsets: [UTCOffsetChange], countingWords: Bool
    ) -> (sql: String, values: [SQLiteValue]) {
        var (whereSQL, values) = filter.whereClause
        values.append(.text(UTCOffsetChange.sqlArgument(offsets)))
        let words = countingWords ? "word_count" : "NULL"
        return ("SELECT memo_activity(insert_date, \(words), ?\(values.count)) FROM memo\(whereSQL)", values)
    }

    /// The first and the last insert date of the memos `filter` selects, or nil for none.
    func insertDateSpan(_ filter: MemoFilter) throws(StoreError) -> ClosedRange<Timestamp>? {
        try StoreError.wrapping {
            let (sql, values) = Self.insertDateSpanStatement(filter)
            let statement = try database.cached(sql)
            return try statement.firstRow(values) { row -> ClosedRange<Timestamp>? in
                guard !row.isNull(at: 0) else { return nil }
                return Timestamp(
                    millisecondsSince1970: row.int64(at: 0))...Timestamp(
                        millisecondsSince1970: row.int64(at: 1))
            } ?? nil
        }
    }

    /// The statement of `insertDateSpan` and its values. A filter of dates alone (or none) reads
    /// each end apart, one search of the insert-date index each: a `min` and a `max` in one
    /// select make SQLite scan the whole index. Any other filter reads its memos once.
    static func insertDateSpanStatement(_ filter: MemoFilter) -> (sql: String, values: [SQLiteValue]) {
        let (whereSQL, values) = filter.whereClause
        guard filter == MemoFilter(since: filter.since, before: filter.before) else {
            return ("SELECT min(insert_date), max(insert_date) FROM memo\(whereSQL)", values)
        }
        let first = "SELECT min(insert_date) FROM memo\(whereSQL)"
        let last = "SELECT max(insert_date) FROM memo\(whereSQL)"
        return ("SELECT (\(first)), (\(last))", values)
    }

    /// The `limit` tags most memos `filter` selects carry, most used first, then by name.
    func mostUsedTags(_ filter: MemoFilter, limit: Int) throws(StoreError) -> [TagCount] {
        try StoreError.wrapping {
            var (whereSQL, values) = filter.whereClause
            values.append(.integer(Int64(limit)))
            let selected = whereSQL.isEmpty ? "" : " WHERE memo_id IN (SELECT id FROM memo\(whereSQL))"
            let statement = try database.cached(
                "SELECT name, count(*) FROM memo_tag\(selected) GROUP BY name ORDER BY count(*) DESC, name LIMIT ?\(values.count)"
            )
            try statement.bind(values)
            var counts: [TagCount] = []
            while try statement.step() {
                counts.append(TagCount(name: statement.string(at: 0), count: Int(statement.int64(at: 1))))
            }
            return counts
        }
    }
}
