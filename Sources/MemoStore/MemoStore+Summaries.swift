extension MemoStore {
    /// A memo's id and the start of its title (its first line that is not blank): enough
    /// to recognise it in a menu.
    package struct Summary: Equatable, Sendable {
        package var id: Int64
        package var title: String
    }

    /// Memos whose decimal id starts with `idPrefix` (all memos for ""), newest first.
    package func summaries(idPrefix: String, limit: Int) throws(StoreError) -> [Summary] {
        try StoreError.wrapping {
            guard let matching = try idPrefixCondition(idPrefix) else { return [] }
            let values = matching.values + [.integer(Int64(limit))]
            return try summaries(where: matching.sql + " ORDER BY insert_date DESC, id DESC LIMIT ?\(values.count)", values)
        }
    }

    /// The first and the last memo whose decimal id starts with `idPrefix`, in text order
    /// (for "7": 7 or 70… first, 7999… last), or nil when none does. Every matching id
    /// starts with what these two share, so a list of ids that holds them offers no longer
    /// common prefix than all matches have.
    package func textOrderBounds(idPrefix: String) throws(StoreError) -> (first: Summary, last: Summary)? {
        try StoreError.wrapping {
            guard let matching = try idPrefixCondition(idPrefix) else { return nil }
            let order = " ORDER BY CAST(id AS TEXT) "
            guard let first = try summaries(where: matching.sql + order + "ASC LIMIT 1", matching.values).first,
                  let last = try summaries(where: matching.sql + order + "DESC LIMIT 1", matching.values).first
            else { return nil }
            return (first, last)
        }
    }

    /// The SQL condition (with its values) for ids starting with `idPrefix`: nil when no id can.
    ///
    /// The ids starting with "12" are 12, 120…129, 1200…1299, …: one rowid range per length,
    /// so the lookup reads only matching rows however large the store is.
    private func idPrefixCondition(_ idPrefix: String) throws -> (sql: String, values: [SQLiteValue])? {
        if idPrefix.isEmpty { return ("", []) }
        guard let prefix = Int64(idPrefix), prefix > 0, String(prefix) == idPrefix else { return nil }
        let largest = try database.integer("SELECT coalesce(max(id), 0) FROM memo")
        var ranges: [String] = [], values: [SQLiteValue] = []
        var low = prefix, high = prefix
        while low <= largest {
            values += [.integer(low), .integer(high)]
            ranges.append("id BETWEEN ?\(values.count - 1) AND ?\(values.count)")
            let (nextLow, lowOverflow) = low.multipliedReportingOverflow(by: 10)
            let (nextHigh, highOverflow) = high.multipliedReportingOverflow(by: 10)
            if lowOverflow || highOverflow { break }
            low = nextLow
            high = nextHigh + 9
        }
        guard !ranges.isEmpty else { return nil }
        return (" WHERE " + ranges.joined(separator: " OR "), values)
    }

    private func summaries(where condition: String, _ values: [SQLiteValue]) throws -> [Summary] {
        let statement = try database.cached("SELECT id, substr(content, 1, 200) FROM memo" + condition)
        try statement.bind(values)
        var summaries: [Summary] = []
        while try statement.step() {
            summaries.append(Summary(id: statement.int64(at: 0), title: MemoContent.title(of: statement.string(at: 1))))
        }
        return summaries
    }
}
