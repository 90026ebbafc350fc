/// The memos of one store: opening and migrating it, queries, and the write operations,
/// which check their input, then have `MemoTable` write the rows inside a change that
/// `ChangeRecorder` records. Every change is given its time by the caller (the session's
/// clock); the store reads no clock.
///
/// Not `Sendable`, like the connection it owns: one session uses it at a time.
package final class MemoStore {
    package let location: StoreLocation
    /// Whether opening it created its file: the session says so, once.
    package internal(set) var wasCreated = false
    let database: Database
    /// The one writer of memo rows, and its parts for the history and for sync.
    let table: MemoTable
    let historyImages: HistoryImages
    let syncStamping: SyncStamping
    /// Records each change in the history, in the change's transaction.
    let recorder: ChangeRecorder

    init(location: StoreLocation, database: Database) {
        self.location = location
        self.database = database
        table = MemoTable(database: database)
        historyImages = HistoryImages(database: database)
        syncStamping = SyncStamping(database: database)
        recorder = ChangeRecorder(database: database, historyImages: historyImages, syncStamping: syncStamping, file: StoreFile(location))
    }

    /// The columns `decodeMemo` and `MemoRow` read, in order; tags come as one
    /// space-separated string, in name order (the primary key's order: no sorting).
    static let memoColumns = "id, uuid, content, insert_date, update_date, tag_names"

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
        _ = try existingMemos(ids: query.filter.namedMemos)
        return try StoreError.wrapping {
            let (sql, values) = query.selectStatement
            let statement = try database.prepare(sql)
            try statement.bind(values)
            return MemoCursor(statement: statement)
        }
    }

    /// How many memos `filter` selects.
    package func count(_ filter: MemoFilter = MemoFilter()) throws(StoreError) -> Int {
        _ = try existingMemos(ids: filter.namedMemos)
        return try StoreError.wrapping {
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

    /// Inserts a memo, as a change made at its insert date; inline `@tags` in its text are
    /// added to the draft's tags.
    @discardableResult
    package func insert(_ draft: MemoDraft) throws(StoreError) -> Memo {
        try MemoContent.validate(draft.content)
        let explicitTags = try normalized(draft.tags)
        return try recorded(.add, at: draft.insertDate) {
            let id = try table.insert(draft, explicitTags: explicitTags, inlineTags: TagName.inlineTags(in: draft.content),
                                      facts: recorder.stamp(at: draft.insertDate))
            return try existingMemo(id: id)
        }
    }

    /// Replaces a memo's text and sets its update date, `date`: the change's time. Its insert
    /// date, and so its place in the order, never changes. Inline tags follow the new text;
    /// explicit tags stay.
    @discardableResult
    package func updateContent(id: Int64, to content: String, at date: Timestamp) throws(StoreError) -> Memo {
        try MemoContent.validate(content)
        return try recorded(.edit, at: date) {
            // The same text again changes nothing: no update date, no history entry, no sync.
            let current = try existingMemo(id: id)
            guard current.content != content else { return current }
            guard try table.updateContent(of: id, to: content, updateDate: date) else { throw StoreError.memoNotFound([id]) }
            return try existingMemo(id: id)
        }
    }

    /// Deletes every memo in `ids`, or none if one of them does not exist.
    package func delete(ids: [Int64], at time: Timestamp) throws(StoreError) -> (ids: [Int64], referrers: [LinkedMemo]) {
        var unique: [Int64] = []
        for id in ids where !unique.contains(id) { unique.append(id) }
        return try recorded(.delete, at: time) {
            let referrers = try referrers(of: unique)
            let missing = try unique.filter { try !table.delete($0) }
            if !missing.isEmpty { throw StoreError.memoNotFound(missing) }
            return (unique, referrers)
        }
    }

    /// Adds tags to a memo; tags it already has are kept as they are.
    @discardableResult
    package func addTags(_ tags: [String], to id: Int64, at time: Timestamp) throws(StoreError) -> Memo {
        let names = try normalized(tags)
        return try recorded(.tag, at: time) {
            _ = try existingMemo(id: id)
            try table.addTags(names, to: id)
            return try existingMemo(id: id)
        }
    }

    /// Removes tags from a memo, or none if it lacks one of them or its text carries one
    /// (SPEC §3: an inline `@tag` tags the memo; it goes with an edit of the text, and a sync
    /// could not carry its removal).
    @discardableResult
    package func removeTags(_ tags: [String], from id: Int64, at time: Timestamp) throws(StoreError) -> Memo {
        let names = try normalized(tags)
        return try recorded(.untag, at: time) {
            let inline = Set(TagName.inlineTags(in: try existingMemo(id: id).content))
            if let name = names.first(where: inline.contains) { throw StoreError.tagInText(memo: id, tag: name) }
            for name in names where try !table.removeTag(name, from: id) { throw StoreError.tagNotFound(memo: id, tag: name) }
            return try existingMemo(id: id)
        }
    }

    /// Makes `tags` the memo's whole set of explicit tags; the inline tags of its text stay
    /// (SPEC §3: they tag the memo while the text carries them).
    @discardableResult
    package func replaceTags(of id: Int64, with tags: [String], at time: Timestamp) throws(StoreError) -> Memo {
        let names = try normalized(tags)
        return try recorded(.tag, at: time) {
            let inline = TagName.inlineTags(in: try existingMemo(id: id).content)
            try table.replaceTags(of: id, explicit: names.filter { !inline.contains($0) }, inline: inline)
            return try existingMemo(id: id)
        }
    }

    // MARK: Changes

    /// Runs `body` as one saved change of `kind` made at `time`, in one transaction, recorded
    /// in the history. Inside another recorded change (an import's merges, a batch's
    /// commands) it is part of that one. Errors of `body` pass through; SQLite's become
    /// `StoreError`.
    package func recordingChange<T>(_ kind: ChangeKind, target: Int64? = nil, at time: Timestamp,
                                    _ body: () throws -> T) throws -> T {
        do {
            return try recorder.record(kind, target: target, at: time, body)
        } catch let error as SQLiteError {
            throw StoreError(error)
        }
    }

    /// `recordingChange` for the store's own write methods, which only fail with store errors.
    func recorded<T>(_ kind: ChangeKind, target: Int64? = nil, at time: Timestamp, _ body: () throws -> T) throws(StoreError) -> T {
        try StoreError.wrapping { try recordingChange(kind, target: target, at: time, body) }
    }

    /// The history entry this connection wrote last.
    package var lastRecordedChange: Int64? { recorder.lastRecordedChange }

    /// Rows this connection inserted, changed or deleted since it opened.
    package var totalChanges: Int64 { database.totalChanges }

    /// True while a transaction is open on this connection: changes not yet written.
    package var hasOpenTransaction: Bool {
        !database.isAutocommit
    }

    func normalized(_ tags: [String]) throws(StoreError) -> [String] {
        var names: [String] = []
        for tag in tags {
            let name = try TagName.normalize(tag)
            if !names.contains(name) { names.append(name) }
        }
        return names
    }
}

extension MemoStore {
    /// A value that differs whenever the memos may have changed since it was last read: another
    /// connection committed (`PRAGMA data_version`), or this one changed rows
    /// (`sqlite3_total_changes`). Two integer reads, so watchers can poll it cheaply.
    package func changeStamp() throws(StoreError) -> [Int64] {
        try StoreError.wrapping { [try database.integer("PRAGMA data_version"), database.totalChanges] }
    }
}
