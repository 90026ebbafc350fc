/// The store's persistent history (SPEC §4a): every saved change is an entry in `history`,
/// with the state of each memo it touched as it was before (`history_memo.before`, a JSON
/// image of the memo's row and tags, or NULL for a memo the change created). Undo puts those
/// images back; the undo is itself an entry, whose images are the state it replaced, and
/// redo puts those back.
///
/// While a change runs, each memo's image is staged in the connection's temporary table
/// `pending_change` the first time the change touches it; the entry is written in the same
/// transaction as the change. Everything happens in SQL, so an import of a million memos
/// keeps memory flat. (SQLite's session extension would build the whole changeset in
/// memory — about 200 MB for a million added rows — and cannot track the FTS5 index.)
extension MemoStore {
    /// A memo's state as JSON, computed in SQL from a row of `memo`: what undo restores.
    static let imageSQL = """
        json_object('id', memo.id, 'uuid', memo.uuid, 'content', memo.content, 'insert_date', memo.insert_date,
                    'update_date', memo.update_date, 'version', json(memo.version),
                    'tags', (SELECT json_group_array(json_array(name, inline))
                             FROM (SELECT name, inline FROM memo_tag WHERE memo_id = memo.id ORDER BY name)))
        """

    /// Creates the connection's staging table (temporary tables are private to a
    /// connection) before its first change: a run that only reads never pays for it.
    private func prepareStagingTable() throws {
        guard !hasStagingTable else { return }
        try database.execute("CREATE TEMP TABLE IF NOT EXISTS pending_change(memo_id INTEGER PRIMARY KEY, before TEXT)")
        hasStagingTable = true
    }

    // MARK: Recording

    /// Runs `body` as one saved change of `kind`, in one transaction, and records it in the
    /// history. Inside another recorded change (an import's merges, a batch's commands) it
    /// is part of that one.
    package func recordingChange<T>(_ kind: ChangeKind, target: Int64? = nil, _ body: () throws -> T) throws -> T {
        guard recordingKind == nil else { return try body() }
        try prepareStagingTable()
        recordingKind = kind
        defer { recordingKind = nil }
        let time = changeTime()
        defer { localStamp = nil }
        return try inTransaction {
            if kind != .sync { localStamp = try localChangeStamp(at: time) }
            let result = try body()
            try finishChange(kind, target: target, at: time)
            return result
        }
    }

    /// `recordingChange` for the store's own write methods.
    func recorded<T>(_ kind: ChangeKind, _ body: () throws -> T) throws(StoreError) -> T {
        try StoreError.wrapping { try recordingChange(kind, body) }
    }

    /// Notes memo `id` as it is now, before the running change touches it; later calls in the
    /// same change keep the first image. A memo that does not exist yet is noted as NULL.
    func stageBeforeImage(of id: Int64) throws {
        try database.cached("""
            INSERT OR IGNORE INTO temp.pending_change(memo_id, before)
            VALUES (?1, (SELECT \(Self.imageSQL) FROM memo WHERE id = ?1))
            """).run([.integer(id)])
    }

    /// Writes the staged images as a history entry, leaving out memos the change left as
    /// they were; no entry when nothing changed.
    private func finishChange(_ kind: ChangeKind, target: Int64?, at time: Timestamp) throws {
        try database.cached("""
            DELETE FROM temp.pending_change
            WHERE CASE WHEN before IS NULL THEN memo_id NOT IN (SELECT id FROM memo)
                       ELSE before IS (SELECT \(Self.imageSQL) FROM memo WHERE memo.id = pending_change.memo_id) END
            """).run()
        let (count, summary) = try database.cached("""
            SELECT count(*), (SELECT coalesce((SELECT substr(content, 1, 200) FROM memo WHERE id = p.memo_id),
                                              json_extract(p.before, '$.content'))
                              FROM temp.pending_change p ORDER BY p.memo_id LIMIT 1)
            FROM temp.pending_change
            """).firstRow([]) { ($0.int64(at: 0), $0.optionalString(at: 1) ?? "") } ?? (0, "")
        guard count > 0 else { return }
        if kind != .sync { try stampLocalChange(kind, localStamp, at: time) }
        try database.cached("INSERT INTO history(at, kind, target, memo_count, summary) VALUES (?1, ?2, ?3, ?4, ?5)")
            .run([.integer(time.millisecondsSince1970), .text(kind.rawValue), .integer(target),
                  .integer(count), .text(MemoContent.firstLine(of: summary))])
        let sequence = database.lastInsertedRowID
        try database.cached("INSERT INTO history_memo(seq, memo_id, before) SELECT ?1, memo_id, before FROM temp.pending_change")
            .run([.integer(sequence)])
        try database.cached("DELETE FROM temp.pending_change").run()
        lastRecordedChange = sequence
    }

    // MARK: Batches

    /// Opens a batch: one write transaction whose changes this connection sees at once and
    /// other processes only after `saveBatch`. Another writer waits for it.
    package func beginBatch() throws(StoreError) {
        guard !hasOpenTransaction else { throw .batchAlreadyOpen }
        try StoreError.wrapping {
            try prepareStagingTable()
            try database.execute("DELETE FROM temp.pending_change")
            try database.execute("BEGIN IMMEDIATE")
        }
        recordingKind = .batch
        batchStart = changeTime()
        do {
            localStamp = try StoreError.wrapping { try localChangeStamp(at: batchStart ?? changeTime()) }
        } catch {
            try? StoreError.wrapping { try database.execute("ROLLBACK") }
            recordingKind = nil
            throw error
        }
    }

    /// Saves the open batch as one history entry; its sequence number, or nil if it
    /// changed nothing.
    @discardableResult
    package func saveBatch() throws(StoreError) -> Int64? {
        guard recordingKind == .batch, hasOpenTransaction else { throw .noOpenBatch }
        let before = lastRecordedChange
        try StoreError.wrapping {
            try finishChange(.batch, target: nil, at: batchStart ?? changeTime())
            try database.execute("COMMIT")
        }
        recordingKind = nil
        localStamp = nil
        return lastRecordedChange == before ? nil : lastRecordedChange
    }

    /// Discards the open batch; nothing of it reaches the store or the history.
    package func rollbackBatch() throws(StoreError) {
        guard recordingKind == .batch, hasOpenTransaction else { throw .noOpenBatch }
        try StoreError.wrapping { try database.execute("ROLLBACK") }
        recordingKind = nil
        localStamp = nil
    }

    /// True while a batch is open.
    package var hasOpenBatch: Bool {
        recordingKind == .batch && hasOpenTransaction
    }

    // MARK: Reading the history

    private static let entryColumns = "seq, at, kind, target, memo_count, summary, undone"

    private static func decodeEntry(_ row: Statement) -> HistoryEntry {
        HistoryEntry(sequence: row.int64(at: 0), time: Timestamp(millisecondsSince1970: row.int64(at: 1)),
                     kind: ChangeKind(rawValue: row.string(at: 2)) ?? .edit,
                     target: row.isNull(at: 3) ? nil : row.int64(at: 3), memoCount: Int(row.int64(at: 4)),
                     summary: row.string(at: 5), isUndone: row.int64(at: 6) != 0)
    }

    /// The newest entries first.
    package func history(limit: Int?) throws(StoreError) -> [HistoryEntry] {
        try StoreError.wrapping {
            let statement = try database.cached("SELECT \(Self.entryColumns) FROM history ORDER BY seq DESC LIMIT ?1")
            try statement.bind([.integer(Int64(limit ?? -1))])
            var entries: [HistoryEntry] = []
            while try statement.step() { entries.append(Self.decodeEntry(statement)) }
            return entries
        }
    }

    package func historyEntry(_ sequence: Int64) throws(StoreError) -> HistoryEntry? {
        try StoreError.wrapping {
            try database.cached("SELECT \(Self.entryColumns) FROM history WHERE seq = ?1").firstRow([.integer(sequence)], Self.decodeEntry)
        }
    }

    /// The store's most recent change that is not undone: what a one-shot `undo` takes.
    package func latestUndoableChange() throws(StoreError) -> HistoryEntry? {
        try StoreError.wrapping {
            try database.cached("""
                SELECT \(Self.entryColumns) FROM history WHERE undone = 0 AND kind NOT IN ('undo', 'redo') ORDER BY seq DESC LIMIT 1
                """).firstRow([], Self.decodeEntry)
        }
    }

    /// What a one-shot `redo` takes: the most recently undone change, as long as no new change
    /// came after the undos and redos since the last change.
    package func latestRedoableChange() throws(StoreError) -> HistoryEntry? {
        try StoreError.wrapping {
            try database.cached("""
                SELECT \(Self.entryColumns) FROM history WHERE seq = (
                    SELECT u.target FROM history u JOIN history t ON t.seq = u.target
                    WHERE u.kind = 'undo' AND t.undone = 1
                      AND u.seq > coalesce((SELECT max(seq) FROM history WHERE kind NOT IN ('undo', 'redo')), 0)
                    ORDER BY u.seq DESC LIMIT 1)
                """).firstRow([], Self.decodeEntry)
        }
    }

    // MARK: Undo and redo

    /// Undoes entry `sequence`: every memo it touched goes back to how it was before, with
    /// the same id, uuid, dates and tags. Refused when a later change that is not undone
    /// touched one of those memos, so newer work is never lost. Returns the entry, now undone.
    @discardableResult
    package func undo(_ sequence: Int64) throws(StoreError) -> HistoryEntry {
        guard let entry = try historyEntry(sequence), !entry.kind.isUndoOrRedo else { throw .nothingToUndo }
        guard !entry.isUndone else { throw .alreadyUndone(entry) }
        if let later = try laterChange(touchingMemosOf: sequence, after: sequence) { throw .undoRefused(entry, later: later) }
        return try replay(imagesOf: sequence, as: .undo, target: entry, undone: true)
    }

    /// Redoes entry `sequence`, undone before: the memos get back the state the undo
    /// replaced. Refused, like undo, when a later change touched them. Returns the entry.
    @discardableResult
    package func redo(_ sequence: Int64) throws(StoreError) -> HistoryEntry {
        guard let entry = try historyEntry(sequence), entry.isUndone else { throw .nothingToRedo }
        let undoEntry = try StoreError.wrapping {
            try database.cached("SELECT max(seq) FROM history WHERE kind = 'undo' AND target = ?1").scalarInt([.integer(sequence)])
        }
        guard let undoEntry else { throw .nothingToRedo }
        if let later = try laterChange(touchingMemosOf: sequence, after: undoEntry) { throw .redoRefused(entry, later: later) }
        return try replay(imagesOf: undoEntry, as: .redo, target: entry, undone: false)
    }

    /// The first change after `after`, not undone and not an undo or redo, that touched a
    /// memo entry `sequence` touched.
    private func laterChange(touchingMemosOf sequence: Int64, after: Int64) throws(StoreError) -> HistoryEntry? {
        try StoreError.wrapping {
            try database.cached("""
                SELECT \(Self.entryColumns) FROM history l
                WHERE l.seq > ?2 AND l.undone = 0 AND l.kind NOT IN ('undo', 'redo')
                  AND EXISTS (SELECT 1 FROM history_memo a JOIN history_memo b ON b.memo_id = a.memo_id
                              WHERE a.seq = ?1 AND b.seq = l.seq)
                ORDER BY l.seq LIMIT 1
                """).firstRow([.integer(sequence), .integer(after)], Self.decodeEntry)
        }
    }

    /// Puts back the images entry `source` recorded, as one recorded change of `kind`.
    private func replay(imagesOf source: Int64, as kind: ChangeKind, target: HistoryEntry, undone: Bool) throws(StoreError) -> HistoryEntry {
        try StoreError.wrapping {
            try recordingChange(kind, target: target.sequence) {
                let value: [SQLiteValue] = [.integer(source)]
                try database.cached("""
                    INSERT OR IGNORE INTO temp.pending_change(memo_id, before)
                    SELECT h.memo_id, (SELECT \(Self.imageSQL) FROM memo WHERE memo.id = h.memo_id) FROM history_memo h WHERE h.seq = ?1
                    """).run(value)
                try database.cached("DELETE FROM memo_search WHERE rowid IN (SELECT memo_id FROM history_memo WHERE seq = ?1)").run(value)
                try database.cached("DELETE FROM memo WHERE id IN (SELECT memo_id FROM history_memo WHERE seq = ?1)").run(value)
                try database.cached("""
                    INSERT INTO memo(id, uuid, content, insert_date, update_date)
                    SELECT json_extract(before, '$.id'), json_extract(before, '$.uuid'), json_extract(before, '$.content'),
                           json_extract(before, '$.insert_date'), json_extract(before, '$.update_date')
                    FROM history_memo WHERE seq = ?1 AND before IS NOT NULL
                    """).run(value)
                try database.cached("""
                    INSERT INTO memo_tag(memo_id, name, inline)
                    SELECT h.memo_id, json_extract(t.value, '$[0]'), json_extract(t.value, '$[1]')
                    FROM history_memo h, json_each(h.before, '$.tags') t WHERE h.seq = ?1 AND h.before IS NOT NULL
                    """).run(value)
                let restored = try database.prepare("SELECT id, content FROM memo WHERE id IN (SELECT memo_id FROM history_memo WHERE seq = ?1)")
                try restored.bind(value)
                let index = try database.cached("INSERT INTO memo_search(rowid, text) VALUES (?1, ?2)")
                while try restored.step() {
                    try index.run([.integer(restored.int64(at: 0)), .text(SearchText.indexed(restored.string(at: 1)))])
                }
                try database.cached("UPDATE history SET undone = ?2 WHERE seq = ?1").run([.integer(target.sequence), .integer(undone ? 1 : 0)])
            }
            return try historyEntry(target.sequence) ?? target
        }
    }
}
