/// Which memos a listing or count covers.
package struct MemoFilter: Equatable, Sendable {
    /// Only memos carrying this (normalized) tag.
    package var tag: String?
    /// Inserted at or after this instant.
    package var since: Timestamp?
    /// Inserted strictly before this instant.
    package var before: Timestamp?
    /// Only memos the full-text index finds for this search.
    package var search: SearchQuery?

    package init(tag: String? = nil, since: Timestamp? = nil, before: Timestamp? = nil, search: SearchQuery? = nil) {
        self.tag = tag
        self.since = since
        self.before = before
        self.search = search
    }
}

/// Insert-date order, ties broken by id in the same direction.
package enum MemoOrder: String, Equatable, Sendable {
    case newestFirst = "desc"
    case oldestFirst = "asc"
}

/// A fetch request: filter, order and page.
package struct MemoQuery: Equatable, Sendable {
    package var filter: MemoFilter
    package var order: MemoOrder
    package var limit: Int?
    package var offset: Int
    /// Whether each row also reads the memo's sync version (`MemoRow.withVersion`), as an
    /// export writes it.
    package var readsVersions: Bool

    package init(filter: MemoFilter = MemoFilter(), order: MemoOrder = .newestFirst,
                 limit: Int? = nil, offset: Int = 0, readsVersions: Bool = false) {
        self.filter = filter
        self.order = order
        self.limit = limit
        self.offset = offset
        self.readsVersions = readsVersions
    }
}

extension MemoFilter {
    /// The WHERE clause and its bound values. Only fixed SQL fragments are joined here;
    /// every user-supplied value is a bound parameter.
    var whereClause: (sql: String, values: [SQLiteValue]) {
        var conditions: [String] = []
        var values: [SQLiteValue] = []
        if let tag {
            values.append(.text(tag))
            conditions.append("id IN (SELECT memo_id FROM memo_tag WHERE name = ?\(values.count))")
        }
        if let search {
            values.append(.text(search.expression))
            conditions.append("id IN (SELECT rowid FROM memo_search WHERE memo_search MATCH ?\(values.count))")
        }
        if let since {
            values.append(.integer(since.millisecondsSince1970))
            conditions.append("insert_date >= ?\(values.count)")
        }
        if let before {
            values.append(.integer(before.millisecondsSince1970))
            conditions.append("insert_date < ?\(values.count)")
        }
        let sql = conditions.isEmpty ? "" : " WHERE " + conditions.joined(separator: " AND ")
        return (sql, values)
    }
}

extension MemoQuery {
    /// The SELECT for this request. Both orders walk the `(insert_date, id)` index, so the
    /// first page costs the same however many memos there are.
    var selectStatement: (sql: String, values: [SQLiteValue]) {
        let (whereSQL, values) = filter.whereClause
        let direction = order == .newestFirst ? "DESC" : "ASC"
        let columns = MemoStore.memoColumns + (readsVersions ? ", " + MemoVersion.jsonSQL : "")
        let sql = "SELECT \(columns) FROM memo\(whereSQL)"
            + " ORDER BY insert_date \(direction), id \(direction)"
            + " LIMIT ?\(values.count + 1) OFFSET ?\(values.count + 2)"
        return (sql, values + [.integer(Int64(limit ?? -1)), .integer(Int64(offset))])
    }
}
