extension MemoStore {
    /// A memo's id and the start of its title (its first line that is not blank): enough
    /// to recognise it in a menu.
    package struct Summary: Equatable, Sendable {
        package var id: Int64
        package var title: String
    }

    /// Memos whose decimal id starts with `idPrefix` (all memos for ""), newest first.
    ///
    /// The ids starting with "12" are 12, 120…129, 1200…1299, …: one rowid range per length,
    /// so the lookup reads only matching rows however large the store is.
    package func summaries(idPrefix: String, limit: Int) throws(StoreError) -> [Summary] {
        try StoreError.wrapping {
            let columns = "SELECT id, substr(content, 1, 200) FROM memo"
            let statement: Statement
            var values: [SQLiteValue] = []
            if let prefix = Int64(idPrefix), prefix > 0 {
                let largest = try database.integer("SELECT coalesce(max(id), 0) FROM memo")
                var ranges: [String] = []
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
                guard !ranges.isEmpty else { return [] }
                values.append(.integer(Int64(limit)))
                statement = try database.prepare(columns + " WHERE " + ranges.joined(separator: " OR ")
                                                 + " ORDER BY insert_date DESC, id DESC LIMIT ?\(values.count)")
            } else if idPrefix.isEmpty {
                values.append(.integer(Int64(limit)))
                statement = try database.cached(columns + " ORDER BY insert_date DESC, id DESC LIMIT ?1")
            } else {
                return []
            }
            try statement.bind(values)
            var summaries: [Summary] = []
            while try statement.step() {
                summaries.append(Summary(id: statement.int64(at: 0), title: MemoContent.title(of: statement.string(at: 1))))
            }
            return summaries
        }
    }
}
