import FoundationEssentials

/// The memos of one store: the only code that knows the SQL layout.
///
/// Not `Sendable`, like the connection it owns: one session uses it at a time.
package final class MemoStore {
    package let location: StoreLocation
    let database: Database
    /// The kind of the recorded change running now (a batch while one is open), or nil.
    var recordingKind: ChangeKind?
    /// When the open batch began: the time its history entry gets.
    var batchStart: Timestamp?
    /// The sync facts of the local change running now (`nextSyncStamp`), or nil.
    var localStamp: SyncStamp?
    /// Whether this connection created its `pending_change` table yet.
    var hasStagingTable = false
    /// The history entry this connection wrote last.
    package internal(set) var lastRecordedChange: Int64?
    /// When a change happens, for its history entry: the session's clock (deterministic in
    /// scripts), read without moving it.
    package var changeTime: () -> Timestamp = {
        Timestamp(millisecondsSince1970: Int64((Date().timeIntervalSince1970 * 1000).rounded(.down)))
    }

    init(location: StoreLocation, database: Database) {
        self.location = location
        self.database = database
    }

    /// The columns `decodeMemo` and `MemoRow` read, in order; tags come as one
    /// space-separated string, in name order (the primary key's order: no sorting).
    static let memoColumns = "id, uuid, content, insert_date, update_date, "
        + "(SELECT group_concat(name, ' ') FROM (SELECT name FROM memo_tag WHERE memo_id = memo.id ORDER BY name))"

    static func decodeMemo(from row: Statement) -> Memo {
        Memo(
            id: row.int64(at: 0),
            uuid: row.string(at: 1),
            content: row.string(at: 2),
            insertDate: Timestamp(millisecondsSince1970: row.int64(at: 3)),
            updateDate: row.isNull(at: 4) ? nil : Timestamp(millisecondsSince1970: row.int64(at: 4)),
            tags: (row.optionalString(at: 5) ?? "").split(separator: " ").map(String.init).sorted()
        )
    }

    // MARK: Reading

    /// The memo with `id`, or nil.
    package func memo(id: Int64) throws(StoreError) -> Memo? {
        try StoreError.wrapping {
            try database.cached("SELECT \(Self.memoColumns) FROM memo WHERE id = ?1")
                .firstRow([.integer(id)], Self.decodeMemo)
        }
    }

    /// The memo with `uuid`, or nil.
    package func memo(uuid: String) throws(StoreError) -> Memo? {
        try StoreError.wrapping {
            try database.cached("SELECT \(Self.memoColumns) FROM memo WHERE uuid = ?1")
                .firstRow([.text(uuid)], Self.decodeMemo)
        }
    }

    /// The memos with `ids`, in that order, or an error naming every id that has none.
    package func existingMemos(ids: [Int64]) throws(StoreError) -> [Memo] {
        var memos: [Memo] = [], missing: [Int64] = []
        for id in ids {
            if let memo = try memo(id: id) { memos.append(memo) } else if !missing.contains(id) { missing.append(id) }
        }
        guard missing.isEmpty else { throw .memoNotFound(missing) }
        return memos
    }

    /// The memo with `id`, or a not-found error.
    package func existingMemo(id: Int64) throws(StoreError) -> Memo {
        guard let memo = try memo(id: id) else { throw .memoNotFound([id]) }
        return memo
    }

    /// A lazy cursor over the memos `query` selects, in its order.
    package func memos(_ query: MemoQuery) throws(StoreError) -> MemoCursor {
        try StoreError.wrapping {
            let (sql, values) = query.selectStatement
            let statement = try database.prepare(sql)
            try statement.bind(values)
            return MemoCursor(statement: statement)
        }
    }

    /// How many memos `filter` selects.
    package func count(_ filter: MemoFilter = MemoFilter()) throws(StoreError) -> Int {
        try StoreError.wrapping {
            let (whereSQL, values) = filter.whereClause
            return Int(try database.cached("SELECT count(*) FROM memo\(whereSQL)").scalarInt(values) ?? 0)
        }
    }

    /// Every tag with the number of memos carrying it, by name.
    package func tagCounts() throws(StoreError) -> [TagCount] {
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

    // MARK: Writing

    /// Inserts a memo; inline `@tags` in its text are added to the draft's tags.
    @discardableResult
    package func insert(_ draft: MemoDraft) throws(StoreError) -> Memo {
        try recorded(.add) { try existingMemo(id: insertRow(draft, inlineTags: TagName.inlineTags(in: draft.content))) }
    }

    /// Inserts a memo with its tags and search text; its id. `inlineTags` are those of its text.
    func insertRow(_ draft: MemoDraft, inlineTags: [String]) throws(StoreError) -> Int64 {
        try MemoContent.validate(draft.content)
        let explicitTags = try normalized(draft.tags)
        return try recorded(.add) {
            // A local change stamps a new memo as it inserts it: an import of a million memos
            // needs no second pass over them (a sync writes its own facts afterwards).
            let stamp = localStamp ?? SyncStamp(store: "", seq: 0, clock: 0)
            try database.cached("""
                INSERT INTO memo(uuid, content, insert_date, update_date, version, changed_at, changed_by, change_seq)
                VALUES (?1, ?2, ?3, ?4, CASE WHEN ?5 = '' THEN '{}' ELSE json_object(?5, 1) END, ?6, ?5, ?7)
                """).run([.text(draft.uuid), .text(draft.content),
                          .integer(draft.insertDate.millisecondsSince1970),
                          .integer(draft.updateDate?.millisecondsSince1970),
                          .text(stamp.store), .integer(stamp.clock), .integer(stamp.seq)])
            let id = database.lastInsertedRowID
            try database.cached("INSERT OR IGNORE INTO temp.pending_change(memo_id, before) VALUES (?1, NULL)").run([.integer(id)])
            try database.cached("INSERT INTO memo_search(rowid, text) VALUES (?1, ?2)")
                .run([.integer(id), .text(SearchText.indexed(draft.content))])
            try attach(explicitTags, to: id, inline: false)
            try attach(inlineTags, to: id, inline: true)
            return id
        }
    }

    /// Replaces a memo's text and sets its update date. Its insert date, and so its place in
    /// the order, never changes. Inline tags follow the new text; explicit tags stay.
    @discardableResult
    package func updateContent(id: Int64, to content: String, at date: Timestamp) throws(StoreError) -> Memo {
        try MemoContent.validate(content)
        return try recorded(.edit) {
            try stageBeforeImage(of: id)
            try database.cached("UPDATE memo SET content = ?2, update_date = ?3 WHERE id = ?1")
                .run([.integer(id), .text(content), .integer(date.millisecondsSince1970)])
            guard database.changes == 1 else { throw StoreError.memoNotFound([id]) }
            try database.cached("UPDATE memo_search SET text = ?2 WHERE rowid = ?1")
                .run([.integer(id), .text(SearchText.indexed(content))])
            try database.cached("DELETE FROM memo_tag WHERE memo_id = ?1 AND inline = 1").run([.integer(id)])
            try attach(TagName.inlineTags(in: content), to: id, inline: true)
            return try existingMemo(id: id)
        }
    }

    /// Deletes every memo in `ids`, or none if one of them does not exist.
    package func delete(ids: [Int64]) throws(StoreError) -> [Int64] {
        var unique: [Int64] = []
        for id in ids where !unique.contains(id) { unique.append(id) }
        return try recorded(.delete) {
            let delete = try database.cached("DELETE FROM memo WHERE id = ?1")
            let unindex = try database.cached("DELETE FROM memo_search WHERE rowid = ?1")
            var missing: [Int64] = []
            for id in unique {
                try stageBeforeImage(of: id)
                try delete.run([.integer(id)])
                if database.changes != 1 { missing.append(id) }
                try unindex.run([.integer(id)])
            }
            if !missing.isEmpty { throw StoreError.memoNotFound(missing) }
            return unique
        }
    }

    /// Adds tags to a memo; tags it already has are kept as they are.
    @discardableResult
    package func addTags(_ tags: [String], to id: Int64) throws(StoreError) -> Memo {
        let names = try normalized(tags)
        return try recorded(.tag) {
            _ = try existingMemo(id: id)
            try stageBeforeImage(of: id)
            try attach(names, to: id, inline: false)
            return try existingMemo(id: id)
        }
    }

    /// Removes tags from a memo, or none if it lacks one of them.
    @discardableResult
    package func removeTags(_ tags: [String], from id: Int64) throws(StoreError) -> Memo {
        let names = try normalized(tags)
        return try recorded(.untag) {
            _ = try existingMemo(id: id)
            try stageBeforeImage(of: id)
            let remove = try database.cached("DELETE FROM memo_tag WHERE memo_id = ?1 AND name = ?2")
            for name in names {
                try remove.run([.integer(id), .text(name)])
                guard database.changes == 1 else { throw StoreError.tagNotFound(memo: id, tag: name) }
            }
            return try existingMemo(id: id)
        }
    }

    // MARK: Helpers

    /// Rows this connection inserted, changed or deleted since it opened.
    package var totalChanges: Int64 { database.totalChanges }

    /// True while a transaction is open on this connection: changes not yet written.
    package var hasOpenTransaction: Bool {
        !database.isAutocommit
    }

    /// Runs `body` in one transaction (or a savepoint inside an open one): all of it is
    /// written, or none of it. Errors of `body` pass through; SQLite's become `StoreError`.
    package func inTransaction<T>(_ body: () throws -> T) throws -> T {
        do {
            return try database.atomically(body)
        } catch let error as SQLiteError {
            throw StoreError(error)
        }
    }

    /// `inTransaction` for the store's own operations, which only fail with store errors.
    func atomically<T>(_ body: () throws -> T) throws(StoreError) -> T {
        try StoreError.wrapping { try inTransaction(body) }
    }

    func normalized(_ tags: [String]) throws(StoreError) -> [String] {
        var names: [String] = []
        for tag in tags {
            let name = try TagName.normalize(tag)
            if !names.contains(name) { names.append(name) }
        }
        return names
    }

    /// Links tag names to a memo. An explicit tag wins over the same inline one, so it
    /// survives edits of the text.
    func attach(_ names: [String], to id: Int64, inline: Bool) throws {
        let link = try database.cached("""
            INSERT INTO memo_tag(memo_id, name, inline) VALUES (?1, ?2, ?3)
            ON CONFLICT(memo_id, name) DO UPDATE SET inline = min(inline, excluded.inline)
            """)
        for name in names {
            try link.run([.integer(id), .text(name), .integer(inline ? 1 : 0)])
        }
    }

    /// The version-3 migration's backfill: puts every memo in the search index.
    static func indexAllMemosForSearch(_ store: MemoStore) throws {
        let rows = try store.database.prepare("SELECT id, content FROM memo")
        let index = try store.database.prepare("INSERT INTO memo_search(rowid, text) VALUES (?1, ?2)")
        while try rows.step() {
            try index.run([.integer(rows.int64(at: 0)), .text(SearchText.indexed(rows.string(at: 1)))])
        }
    }

    /// The version-2 migration's backfill: tags the inline `@words` of migrated memos.
    static func tagInlineWordsOfAllMemos(_ store: MemoStore) throws {
        let rows = try store.database.prepare("SELECT id, content FROM memo")
        while try rows.step() {
            try store.attach(TagName.inlineTags(in: rows.string(at: 1)), to: rows.int64(at: 0), inline: true)
        }
    }
}

extension MemoStore {
    /// A value that differs whenever the memos may have changed since it was last read: another
    /// connection committed (`PRAGMA data_version`), or this one changed rows
    /// (`sqlite3_total_changes`). Two integer reads, so watchers can poll it cheaply.
    package func changeStamp() throws(StoreError) -> [Int64] {
        try StoreError.wrapping { [try database.integer("PRAGMA data_version"), database.totalChanges] }
    }

    /// Makes `tags` the memo's whole set of tags, given explicitly.
    @discardableResult
    package func replaceTags(of id: Int64, with tags: [String]) throws(StoreError) -> Memo {
        let names = try normalized(tags)
        return try recorded(.tag) {
            _ = try existingMemo(id: id)
            try stageBeforeImage(of: id)
            try database.cached("DELETE FROM memo_tag WHERE memo_id = ?1").run([.integer(id)])
            try attach(names, to: id, inline: false)
            return try existingMemo(id: id)
        }
    }
}
