/// The store's persistent history (SPEC §4a), as `history` shows it, and undo and redo over
/// it: undo puts back the images a change recorded (`MemoTable.restoreImages`); the undo is
/// itself an entry, whose images are the state it replaced, and redo puts those back.
/// `ChangeRecorder` writes the entries.
extension MemoStore {
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

    /// Undoes entry `sequence`, as a change made at `time`: every memo it touched goes back to
    /// how it was before, with the same id, uuid, dates and tags. Refused when a later change
    /// that is not undone touched one of those memos, so newer work is never lost. Returns
    /// the entry, now undone.
    @discardableResult
    package func undo(_ sequence: Int64, at time: Timestamp) throws(StoreError) -> HistoryEntry {
        guard let entry = try historyEntry(sequence), !entry.kind.isUndoOrRedo else { throw .nothingToUndo }
        guard !entry.isUndone else { throw .alreadyUndone(entry) }
        if let later = try laterChange(touchingMemosOf: sequence, after: sequence) { throw .undoRefused(entry, later: later) }
        return try replay(imagesOf: sequence, as: .undo, target: entry, undone: true, at: time)
    }

    /// Redoes entry `sequence`, undone before: the memos get back the state the undo
    /// replaced. Refused, like undo, when a later change touched them. Returns the entry.
    @discardableResult
    package func redo(_ sequence: Int64, at time: Timestamp) throws(StoreError) -> HistoryEntry {
        guard let entry = try historyEntry(sequence), entry.isUndone else { throw .nothingToRedo }
        let undoEntry = try StoreError.wrapping {
            try database.cached("SELECT max(seq) FROM history WHERE kind = 'undo' AND target = ?1").scalarInt([.integer(sequence)])
        }
        guard let undoEntry else { throw .nothingToRedo }
        if let later = try laterChange(touchingMemosOf: sequence, after: undoEntry) { throw .redoRefused(entry, later: later) }
        return try replay(imagesOf: undoEntry, as: .redo, target: entry, undone: false, at: time)
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
    private func replay(imagesOf source: Int64, as kind: ChangeKind, target: HistoryEntry, undone: Bool,
                        at time: Timestamp) throws(StoreError) -> HistoryEntry {
        try recorded(kind, target: target.sequence, at: time) {
            try table.restoreImages(of: source)
            try database.cached("UPDATE history SET undone = ?2 WHERE seq = ?1").run([.integer(target.sequence), .integer(undone ? 1 : 0)])
        }
        return try historyEntry(target.sequence) ?? target
    }
}
