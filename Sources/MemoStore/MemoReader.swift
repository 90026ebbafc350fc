/// Reads memos: by id or uuid, the ones a query selects, how many, their tags, and every
/// text for an index. It never writes, so any part that must look before it changes
/// something (an edit checking the memo exists) reads through it.
struct MemoReader {
    let database: Database

    /// The columns `decodeMemo` and `MemoRow` read, in order; tags come as one
    /// space-separated string, in name order (the primary key's order: no sorting).
    static let memoColumns = "id, uuid, content, insert_date, update_date, tag_names"
    private static let memoByIDSQL = FixedSQL("SELECT \(memoColumns) FROM memo WHERE id = ?1")
    private static let memoByUUIDSQL = FixedSQL("SELECT \(memoColumns) FROM memo WHERE uuid = ?1")

    static func decodeMemo(from row: Statement) -> Memo {
        Memo(
            id: row.int64(at: 0),
            uuid: row.string(at: 1),
            content: row.string(at: 2),
            insertDate: Timestamp(millisecondsSince1970: row.int64(at: 3)),
            updateDate: row.isNull(at: 4) ? nil : Timestamp(millisecondsSince1970: row.int64(at: 4)),
            tags: TagName.names(spaceSeparated: row.optionalString(at: 5) ?? "").sorted()
        )
    }

    /// The memo with `id`, or nil.
    func memo(id: Int64) throws(StoreError) -> Memo? {
        try StoreError.wrapping {
            try database.cached(Self.memoByIDSQL)
                .firstRow([.integer(id)], Self.decodeMemo)
        }
    }

    /// The memo with `uuid`, or nil.
    func memo(uuid: String) throws(StoreError) -> Memo? {
        try StoreError.wrapping {
            try database.cached(Self.memoByUUIDSQL)
                .firstRow([.text(uuid)], Self.decodeMemo)
        }
    }

    /// The memos with `ids`, in that order, or an error naming every id that has none.
    func existingMemos(ids: [Int64]) throws(StoreError) -> [Memo] {
        var memos: [Memo] = [], missing: [Int64] = []
        for id in ids {
            if let memo = try memo(id: id) { memos.append(memo) } else if !missing.contains(id) { missing.append(id) }
        }
        guard missing.isEmpty else { throw .memoNotFound(missing) }
        return memos
    }

    /// The memo with `id`, or a not-found error.
    func existingMemo(id: Int64) throws(StoreError) -> Memo {
        guard let memo = try memo(id: id) else { throw .memoNotFound([id]) }
        return memo
    }

    /// A lazy cursor over the memos `query` selects, in its order.
    func memos(_ query: MemoQuery) throws(StoreError) -> MemoCursor {
        _ = try existingMemos(ids: query.filter.namedMemos)
        return try StoreError.wrapping {
            let (sql, values) = query.selectStatement
            let statement = try database.prepare(sql)
            try statement.bind(values)
            return MemoCursor(statement: statement, readable: ReadableText(database: database))
        }
    }

    /// How many memos `filter` selects.
    func count(_ filter: MemoFilter = MemoFilter()) throws(StoreError) -> Int {
        _ = try existingMemos(ids: filter.namedMemos)
        return try StoreError.wrapping {
            let (whereSQL, values) = filter.whereClause
            return Int(try database.cached("SELECT count(*) FROM memo\(whereSQL)").scalarInt(values) ?? 0)
        }
    }

    /// Every tag with the number of memos carrying it, by name.
    func tagCounts() throws(StoreError) -> [TagCount] {
        try StoreError.wrapping {
            let statement = try database.cached(
                "SELECT name, count(*) FROM memo_tag GROUP BY name ORDER BY name")
            try statement.bind([])
            var counts: [TagCount] = []
            while try statement.step() {
                counts.append(TagCount(name: statement.string(at: 0), count: Int(statement.int64(at: 1))))
            }
            return counts
        }
    }

    /// Calls `body` with the id and the UTF-8 text of every memo, in one pass over the memo
    /// table (no tags, no dates): what an index of the memos by their text is built from.
    func forEachText(_ body: (_ id: Int64, _ text: UnsafeRawBufferPointer) -> Void) throws(StoreError) {
        try StoreError.wrapping {
            let statement = try database.prepare("SELECT id, content FROM memo")
            while try statement.step() {
                statement.withBytes(at: 1) { body(statement.int64(at: 0), $0) }
            }
        }
    }

    /// A value that differs whenever the memos may have changed since it was last read: another
    /// connection committed (`PRAGMA data_version`), or this one changed rows
    /// (`sqlite3_total_changes`). Two integer reads, so watchers can poll it cheaply.
    func changeStamp() throws(StoreError) -> [Int64] {
        try StoreError.wrapping { [try database.integer("PRAGMA data_version"), database.totalChanges] }
    }
}
