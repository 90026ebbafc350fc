extension MemoStore {
    /// A memo's id and the start of its title (its first line that is not blank): enough
    /// to recognise it in a menu.
    package struct Summary: Equatable, Sendable {
        package var id: Int64
        package var title: String
    }
}

/// Memos named by the start of their id, for completing an id as it is typed: each read
/// is a few index look-ups over rowid ranges, so a Tab stays instant in a store of a
/// million memos.
struct MemoSummaries {
    let database: Database

    /// Memos whose decimal id starts with `idPrefix` (all memos for ""), newest first.
    func summaries(idPrefix: String, limit: Int) throws(StoreError) -> [MemoStore.Summary] {
        try StoreError.wrapping {
            let matching: (sql: String, values: [SQLiteValue])
            if idPrefix.isEmpty {
                matching = ("", [])
            } else {
                guard let ranges = try idRanges(startingWith: idPrefix) else { return [] }
                matching = Self.condition(ranges)
            }
            let values = matching.values + [.integer(Int64(limit))]
            return try summaries(
                where: matching.sql + " ORDER BY insert_date DESC, id DESC LIMIT ?\(values.count)", values)
        }
    }

    /// The first and the last memo whose decimal id starts with `idPrefix`, in text order
    /// (for "7": 7 or 70… first, 7999… last), or nil when none does. Every matching id
    /// starts with what these two share, so a list of ids that holds them offers no longer
    /// common prefix than all matches have. Within one range ids have one length, so text
    /// order is number order: the ends are the smallest and largest id of some range, one
    /// index look-up each, whatever the store's size.
    func textOrderBounds(idPrefix: String) throws(StoreError) -> (first: MemoStore.Summary, last: MemoStore.Summary)? {
        try StoreError.wrapping {
            // Every id starts with one of the digits 1 to 9.
            let prefixes = idPrefix.isEmpty ? (1...9).map(String.init) : [idPrefix]
            var ends: [Int64] = []
            for range in try prefixes.flatMap({ try idRanges(startingWith: $0) ?? [] }) {
                let values: [SQLiteValue] = [.integer(range.lowerBound), .integer(range.upperBound)]
                ends +=
                    try database.cached("SELECT min(id), max(id) FROM memo WHERE id BETWEEN ?1 AND ?2")
                    .firstRow(values) { $0.isNull(at: 0) ? [] : [$0.int64(at: 0), $0.int64(at: 1)] } ?? []
            }
            let inTextOrder = ends.sorted { String($0) < String($1) }
            guard let first = inTextOrder.first, let last = inTextOrder.last,
                let firstSummary = try summaries(where: " WHERE id = ?1", [.integer(first)]).first,
                let lastSummary = try summaries(where: " WHERE id = ?1", [.integer(last)]).first
            else { return nil }
            return (firstSummary, lastSummary)
        }
    }

    /// The rowid ranges of the ids starting with `idPrefix` (digits), or nil when no id can.
    ///
    /// The ids starting with "12" are 12, 120…129, 1200…1299, …: one rowid range per length,
    /// so the lookup reads only matching rows however large the store is.
    private func idRanges(startingWith idPrefix: String) throws -> [ClosedRange<Int64>]? {
        guard let prefix = Int64(idPrefix), prefix > 0, String(prefix) == idPrefix else { return nil }
        let largest = try database.integer("SELECT coalesce(max(id), 0) FROM memo")
        var ranges: [ClosedRange<Int64>] = []
        var low = prefix, high = prefix
        while low <= largest {
            ranges.append(low...high)
            let (nextLow, lowOverflow) = low.multipliedReportingOverflow(by: 10)
            let (nextHigh, highOverflow) = high.multipliedReportingOverflow(by: 10)
            if lowOverflow || highOverflow { break }
            low = nextLow
            high = nextHigh + 9
        }
        return ranges.isEmpty ? nil : ranges
    }

    /// The SQL condition (with its values) for ids in `ranges`.
    private static func condition(_ ranges: [ClosedRange<Int64>]) -> (sql: String, values: [SQLiteValue]) {
        var values: [SQLiteValue] = []
        let sql = ranges.map { range in
            values += [.integer(range.lowerBound), .integer(range.upperBound)]
            return "id BETWEEN ?\(values.count - 1) AND ?\(values.count)"
        }.joined(separator: " OR ")
        return (" WHERE " + sql, values)
    }

    private func summaries(where condition: String, _ values: [SQLiteValue]) throws -> [MemoStore.Summary] {
        let statement = try database.cached("SELECT id, substr(content, 1, 200) FROM memo" + condition)
        try statement.bind(values)
        var summaries: [MemoStore.Summary] = []
        while try statement.step() {
            summaries.append(
                MemoStore.Summary(id: statement.int64(at: 0), title: MemoContent.title(of: statement.string(at: 1))))
        }
        return summaries
    }
}
