/// The store's persistent history (docs/REFERENCE.md, History and undo), as `history` shows it, and
/// undo and redo over it: undo puts back the images a change recorded
/// (`HistoryImages.restoreImages`); the undo is itself an entry, whose images are the state it
/// replaced, and redo puts those back. `ChangeRecorder` writes the entries; this type reads them
/// and owns every statement over them, so what counts as undoable or redoable is decided in one
/// place.
struct HistoryLog {
    let database: Database
    /// Puts the images back: the history's part of the one writer of memo rows.
    let historyImages: HistoryImages
    /// Records each undo and redo as a change of its own.
    let recorder: ChangeRecorder

    // MARK: Reading the history

    private static let entryColumns = "seq, at, kind, target, memo_count, summary, undone"

    private static func decodeEntry(_ row: Statement) -> HistoryEntry {
        HistoryEntry(
            sequence: row.int64(at: 0), time: Timestamp(millisecondsSince1970: row.int64(at: 1)),
            kind: ChangeKind(rawValue: row.string(at: 2)) ?? .edit,
            target: row.isNull(at: 3) ? nil : row.int64(at: 3), memoCount: Int(row.int64(at: 4)),
            summary: row.string(at: 5), isUndone: row.int64(at: 6) != 0)
    }

    /// The newest entries first.
    func history(limit: Int?) throws(StoreError) -> [HistoryEntry] {
        try StoreError.wrapping {
            let statement = try database.cached("SELECT \(Self.entryColumns) FROM history ORDER BY seq DESC LIMIT ?1")
            try statement.bind([.integer(Int64(limit ?? -1))])
            var entries: [HistoryEntry] = []
            while try statement.step() { entries.append(Self.decodeEntry(statement)) }
            return entries
        }
    }

    func historyEntry(_ sequence: Int64) throws(StoreError) -> HistoryEntry? {
        try StoreError.wrapping {
            try database.cached("SELECT \(Self.entryColumns) FROM history WHERE seq = ?1").firstRow(
                [.integer(sequence)], Self.decodeEntry)
        }
    }

    /// The store's most recent change that is not undone: what a one-shot `undo` takes.
    private func latestUndoableChange() throws(StoreError) -> HistoryEntry? {
        try StoreError.wrapping {
            try database.cached(
                """
                SELECT \(Self.entryColumns) FROM history WHERE undone = 0 AND kind NOT IN ('undo', 'redo') ORDER BY seq DESC LIMIT 1
                """
            ).firstRow([], Self.decodeEntry)
        }
    }

    /// What `undo --sync` takes: the store's most recent sync that is not undone.
    private func latestUndoableSync() throws(StoreError) -> HistoryEntry? {
        try StoreError.wrapping {
            try database.cached(
                """
                SELECT \(Self.entryColumns) FROM history WHERE undone = 0 AND kind = 'sync' ORDER BY seq DESC LIMIT 1
                """
            ).firstRow([], Self.decodeEntry)
        }
    }

    /// What a one-shot `redo` takes: the most recently undone change, as long as no new change
    /// came after the undos and redos since the last change.
    private func latestRedoableChange() throws(StoreError) -> HistoryEntry? {
        try StoreError.wrapping {
            try database.cached(
                """
                SELECT \(Self.entryColumns) FROM history WHERE seq = (
                    SELECT u.target FROM history u JOIN history t ON t.seq = u.target
                    WHERE u.kind = 'undo' AND t.undone = 1
                      AND u.seq > coalesce((SELECT max(seq) FROM history WHERE kind NOT IN ('undo', 'redo')), 0)
                    ORDER BY u.seq DESC LIMIT 1)
                """
            ).firstRow([], Self.decodeEntry)
        }
    }

    // MARK: Undo and redo

    /// Undoes the change `choice` picks, as a change made at `time`: every memo it touched goes
    /// back to how it was before, with the same id, uuid, dates and tags. The choice, the check
    /// for later changes and the undo are one write transaction, so a change another process
    /// saves meanwhile is either seen or waits, and a change is undone once. Refused when a later
    /// change that is not undone touched one of those memos, so newer work is never lost.
    /// Returns the entry, now undone.
    func undo(_ choice: HistoryChoice, at time: Timestamp) throws(StoreError) -> HistoryEntry {
        try inOneWriteTransaction { () throws(StoreError) in
            guard let sequence = try undoable(choice) else {
                // A session whose own changes are all undone, by another process: name the last.
                if case .newest(let candidates) = choice, let last = candidates.last, let entry = try historyEntry(last)
                {
                    throw .alreadyUndone(entry)
                }
                throw choice == .latestSync ? .refused(.noSyncToUndo) : .nothingToUndo
            }
            return try undoEntry(sequence, ofSync: choice == .latestSync, at: time)
        }
    }

    /// Undoes entry `sequence` itself, as `undo(_:at:)` does.
    func undo(_ sequence: Int64, at time: Timestamp) throws(StoreError) -> HistoryEntry {
        try inOneWriteTransaction { () throws(StoreError) in try undoEntry(sequence, ofSync: false, at: time) }
    }

    /// Redoes the change `choice` picks, undone before: the memos get back the state the undo
    /// replaced. One write transaction, and refused, like undo. Returns the entry.
    func redo(_ choice: HistoryChoice, at time: Timestamp) throws(StoreError) -> HistoryEntry {
        try inOneWriteTransaction { () throws(StoreError) in
            guard let sequence = try redoable(choice) else { throw .nothingToRedo }
            return try redoEntry(sequence, at: time)
        }
    }

    private func undoable(_ choice: HistoryChoice) throws(StoreError) -> Int64? {
        switch choice {
        case .latest: try latestUndoableChange()?.sequence
        case .newest(let candidates): try newest(of: candidates, undone: false)
        case .latestSync: try latestUndoableSync()?.sequence
        }
    }

    private func redoable(_ choice: HistoryChoice) throws(StoreError) -> Int64? {
        switch choice {
        case .latest, .latestSync: try latestRedoableChange()?.sequence
        case .newest(let candidates): try newest(of: candidates, undone: true)
        }
    }

    /// The last of `candidates` whose entry is (or is not) undone.
    private func newest(of candidates: [Int64], undone: Bool) throws(StoreError) -> Int64? {
        for sequence in candidates.reversed() where try historyEntry(sequence)?.isUndone == undone { return sequence }
        return nil
    }

    /// Runs `body` in one write transaction (`BEGIN IMMEDIATE`: it waits for another writer
    /// and then reads the store as that writer left it), or in the one already open.
    private func inOneWriteTransaction<T>(_ body: () throws(StoreError) -> T) throws(StoreError) -> T {
        try StoreError.wrapping { try database.atomically { try body() } }
    }

    /// Undoes entry `sequence`. A sync only when asked for (`ofSync`), and then unlike a
    /// change typed here: what it brought is the peer's too, so undoing it here must not
    /// remove it there at the next sync. It keeps every memo the sync added (brought or
    /// `@conflict` copies), and puts back the memos it changed or deleted as a change made
    /// without seeing the sync (`HistoryImages.countOnImagesOf`): concurrent with the peer's
    /// versions, which the next sync then merges (a text as a `@conflict` copy), never drops.
    private func undoEntry(_ sequence: Int64, ofSync: Bool, at time: Timestamp) throws(StoreError) -> HistoryEntry {
        guard let entry = try historyEntry(sequence), !entry.kind.isUndoOrRedo else { throw .nothingToUndo }
        guard !entry.isUndone else { throw .alreadyUndone(entry) }
        if entry.kind == .sync, !ofSync { throw .refused(.undoOfSync(entry)) }
        if let later = try laterChange(touchingMemosOf: sequence, restoring: sequence, after: sequence) {
            throw .undoRefused(entry, later: later, fromAnotherProcess: false)
        }
        return try replay(imagesOf: sequence, as: .undo, target: entry, undone: true, keepingAdded: ofSync, at: time)
    }

    /// What undoing the latest sync would do, for a question before it: the sync, how many
    /// memos it changed or deleted here (put back), and how many it added (kept); nil when no
    /// sync can be undone.
    func syncUndoPreview() throws(StoreError) -> SyncUndoPreview? {
        guard let entry = try latestUndoableSync() else { return nil }
        return try StoreError.wrapping {
            try database.cached(
                """
                SELECT count(before), count(*) - count(before) FROM history_memo WHERE seq = ?1
                """
            ).firstRow([.integer(entry.sequence)]) {
                SyncUndoPreview(sync: entry, putBack: Int($0.int64(at: 0)), kept: Int($0.int64(at: 1)))
            }
        }
    }

    private func redoEntry(_ sequence: Int64, at time: Timestamp) throws(StoreError) -> HistoryEntry {
        guard let entry = try historyEntry(sequence), entry.isUndone else { throw .nothingToRedo }
        let undoEntry = try StoreError.wrapping {
            try database.cached("SELECT max(seq) FROM history WHERE kind = 'undo' AND target = ?1").scalarInt([
                .integer(sequence)
            ])
        }
        guard let undoEntry else { throw .nothingToRedo }
        if let later = try laterChange(touchingMemosOf: sequence, restoring: undoEntry, after: undoEntry) {
            throw .redoRefused(entry, later: later, fromAnotherProcess: false)
        }
        return try replay(imagesOf: undoEntry, as: .redo, target: entry, undone: false, at: time)
    }

    /// The first change after `after`, not undone and not an undo or redo, that touched a
    /// memo entry `sequence` touched, or a memo that now holds the uuid of one that the images
    /// of entry `source` would bring back (a sync may bring a deleted memo back as a new one).
    private func laterChange(
        touchingMemosOf sequence: Int64, restoring source: Int64, after: Int64
    ) throws(StoreError) -> HistoryEntry? {
        try StoreError.wrapping {
            try database.cached(
                """
                WITH touched(memo_id) AS (
                    SELECT memo_id FROM history_memo WHERE seq = ?1
                    UNION SELECT m.id FROM history_memo a JOIN memo m ON m.uuid = json_extract(a.before, '$.uuid')
                          WHERE a.seq = ?3 AND a.before IS NOT NULL)
                SELECT \(Self.entryColumns) FROM history l
                WHERE l.seq > ?2 AND l.undone = 0 AND l.kind NOT IN ('undo', 'redo')
                  AND EXISTS (SELECT 1 FROM touched t JOIN history_memo b ON b.memo_id = t.memo_id WHERE b.seq = l.seq)
                ORDER BY l.seq LIMIT 1
                """
            ).firstRow([.integer(sequence), .integer(after), .integer(source)], Self.decodeEntry)
        }
    }

    /// Puts back the images entry `source` recorded, as one recorded change of `kind`.
    private func replay(
        imagesOf source: Int64, as kind: ChangeKind, target: HistoryEntry, undone: Bool,
        keepingAdded: Bool = false, at time: Timestamp
    ) throws(StoreError) -> HistoryEntry {
        try recorder.recorded(kind, target: target.sequence, at: time) {
            try historyImages.restoreImages(of: source, keepingAdded: keepingAdded)
            if keepingAdded {
                try historyImages.keepBroughtTexts()
                try historyImages.countOnImagesOf(source)
            }
            try database.cached("UPDATE history SET undone = ?2 WHERE seq = ?1").run([
                .integer(target.sequence), .integer(undone ? 1 : 0)
            ])
        }
        return try historyEntry(target.sequence) ?? target
    }
}
