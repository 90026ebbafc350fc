/// Which memos a listing or count covers.
package struct MemoFilter: Equatable, Sendable {
    /// Only memos carrying every one of these (normalized) tags.
    package var tags: [String]
    /// Inserted at or after this instant.
    package var since: Timestamp?
    /// Inserted strictly before this instant.
    package var before: Timestamp?
    /// Only memos the full-text index finds for this search.
    package var search: SearchQuery?
    /// Only memos whose text references memo `linksTo` (docs/REFERENCE.md, Links).
    package var linksTo: Int64?
    /// Only memos that memo `linkedFrom`'s text references.
    package var linkedFrom: Int64?
    /// Only memos with no link to or from another memo.
    package var isOrphan: Bool

    package init(
        tags: [String] = [], since: Timestamp? = nil, before: Timestamp? = nil, search: SearchQuery? = nil,
        linksTo: Int64? = nil, linkedFrom: Int64? = nil, isOrphan: Bool = false
    ) {
        self.tags = tags
        self.since = since
        self.before = before
        self.search = search
        self.linksTo = linksTo
        self.linkedFrom = linkedFrom
        self.isOrphan = isOrphan
    }

    /// The memos the filter names by id, which must exist.
    var namedMemos: [Int64] {
        [linksTo, linkedFrom].compactMap { $0 }
    }
}

/// Insert-date order, ties broken by id in the same direction; or, for a search, relevance
/// (FTS5's bm25), newest first among equals.
package enum MemoOrder: String, Equatable, Sendable {
    case newestFirst = "desc"
    case oldestFirst = "asc"
    case relevance = "rank"
}

/// A fetch request: filter, order and page.
package struct MemoQuery: Equatable, Sendable {
    package var filter: MemoFilter
    package var order: MemoOrder
    package var limit: Int?
    package var offset: Int
    /// Whether each row also reads the memo's sync version and links (`MemoRow.withVersion`,
    /// `withLinks`), as an
    /// export writes it.
    package var readsVersions: Bool

    package init(
        filter: MemoFilter = MemoFilter(), order: MemoOrder = .newestFirst,
        limit: Int? = nil, offset: Int = 0, readsVersions: Bool = false
    ) {
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
        for tag in tags {
            values.append(.text(tag))
            conditions.append("id IN (SELECT memo_id FROM memo_tag WHERE name = ?\(values.count))")
        }
        if let search {
            if let expression = search.expression {
                values.append(.text(expression))
                conditions.append("id IN (SELECT rowid FROM memo_search WHERE memo_search MATCH ?\(values.count))")
            }
            for (tag, wanted) in search.tags.map({ ($0, true) }) + search.excludedTags.map({ ($0, false) }) {
                values.append(.text(tag))
                conditions.append(
                    "id \(wanted ? "" : "NOT ")IN (SELECT memo_id FROM memo_tag WHERE name = ?\(values.count))")
            }
            if let match = search.match {
                values.append(.text(match.encoded))
                conditions.append("memo_matches(content, ?\(values.count))")
            }
        }
        if let linksTo {
            values.append(.integer(linksTo))
            conditions.append(
                "memo.id IN (SELECT memo_id FROM memo_link WHERE target_uuid = (SELECT uuid FROM memo WHERE id = ?\(values.count)))"
            )
        }
        if let linkedFrom {
            values.append(.integer(linkedFrom))
            conditions.append("memo.uuid IN (SELECT target_uuid FROM memo_link WHERE memo_id = ?\(values.count))")
        }
        if isOrphan {
            conditions.append(
                """
                NOT EXISTS (SELECT 1 FROM memo_link l JOIN memo t ON t.uuid = l.target_uuid WHERE l.memo_id = memo.id AND t.id != memo.id) \
                AND NOT EXISTS (SELECT 1 FROM memo_link l WHERE l.target_uuid = memo.uuid AND l.memo_id != memo.id)
                """)
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
        var (whereSQL, values) = filter.whereClause
        let columns =
            MemoReader.memoColumns + (readsVersions ? ", " + MemoVersion.jsonSQL + ", " + SyncRecord.Link.jsonSQL : "")
        var from = "memo", ordering = order == .oldestFirst ? "insert_date ASC, id ASC" : "insert_date DESC, id DESC"
        if order == .relevance, let expression = filter.search?.expression {
            // bm25 needs the full-text table in the statement itself, not in a subquery.
            values.append(.text(expression))
            from = "memo JOIN memo_search ON memo_search.rowid = memo.id AND memo_search MATCH ?\(values.count)"
            ordering = "bm25(memo_search), " + ordering
        }
        let sql = "SELECT \(columns) FROM \(from)\(whereSQL) ORDER BY \(ordering)"
        // Only a page has a LIMIT: with one, SQLite orders the rows in a b-tree that can drop
        // those past the limit, each whole row inserted into it (a search of 1,000 results
        // spent a third of its time there), where without one it sorts them in memory.
        guard limit != nil || offset > 0 else { return (sql, values) }
        return (
            sql + " LIMIT ?\(values.count + 1) OFFSET ?\(values.count + 2)",
            values + [.integer(Int64(limit ?? -1)), .integer(Int64(offset))]
        )
    }
}
