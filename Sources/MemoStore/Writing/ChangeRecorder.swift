/// Records every saved change in the store's persistent history (docs/REFERENCE.md,
/// History and undo): one entry in `history` per change, with the state of each memo it touched as
/// it was before (`history_memo.before`, the JSON image `MemoTable` staged, NULL for a memo it
/// created).
///
/// A change is a scoped `record` (one command, an import, an undo) or an open-ended one
/// between `begin` and `commit` (a batch, one side of a sync). Either way it is one
/// transaction, and the entry is written in it. The time of a change is given by the caller
/// (the session's clock), never read here. Everything happens in SQL, so an import of a
/// million memos keeps memory flat. (SQLite's session extension would build the whole
/// changeset in memory — about 200 MB for a million added rows — and cannot track FTS5.)
///
/// Not `Sendable`: it belongs to one connection.
final class ChangeRecorder {
    private let database: Database
    private let historyImages: HistoryImages
    private let syncStamping: SyncStamping
    private let identity: SyncIdentity
    /// The kind of the change being recorded (a batch while one is open), or nil.
    private(set) var kind: ChangeKind?
    /// When the open change began: the time its entry gets.
    private var startTime: Timestamp?
    /// The running local change's sync facts, once asked for (the outer Optional), or nil
    /// inside (a store that keeps no versions): one change number for the whole change.
    private var changeStamp: SyncStamp??
    private var hasStagingTable = false
    /// The store's file (nil in memory): a change made in a copy or a restored backup first
    /// makes it a store of its own, and a saved change notes itself on the file.
    private let file: StoreFile?
    /// The history entry this connection wrote last (set back when the transaction that
    /// wrote it is rolled back: `MemoStore.allOrNothing`).
    var lastRecordedChange: Int64?

    init(database: Database, historyImages: HistoryImages, syncStamping: SyncStamping, file: StoreFile?) {
        self.database = database
        self.historyImages = historyImages
        self.syncStamping = syncStamping
        self.file = file
        identity = SyncIdentity(database: database)
    }

    /// Runs `body` as one change of `kind` made at `time`, in one transaction, and records it.
    /// Inside another change (an import's merges, a batch's commands) it is part of that one.
    func record<T>(_ kind: ChangeKind, target: Int64? = nil, at time: Timestamp, _ body: () throws -> T) throws -> T {
        guard self.kind == nil else { return try body() }
        try Self.checkTime(time)
        try prepareStaging()
        self.kind = kind
        defer { self.kind = nil; changeStamp = nil }
        let result = try database.atomically {
            try identity.adoptIfPutBack(file: file, stamping: syncStamping, at: time)
            let result = try body()
            try finish(kind, target: target, at: time)
            return result
        }
        try noteSavedHistory()
        return result
    }

    /// Refuses a change dated outside the years memo keeps (a script's clock run past 9999):
    /// its history entry and the versions it stamps would carry that date.
    private static func checkTime(_ time: Timestamp) throws(StoreError) {
        guard Timestamp.representable.contains(time) else { throw .refused(.dateOutsideYears(time)) }
    }

    // MARK: Open-ended changes

    /// Opens a change of `kind` made at `time` that stays open until `commit` or `rollback`:
    /// one write transaction whose changes this connection sees at once and other processes
    /// only after `commit`. Another writer waits for it.
    func begin(_ kind: ChangeKind, at time: Timestamp) throws(StoreError) {
        guard database.isAutocommit else { throw .batchAlreadyOpen }
        try Self.checkTime(time)
        try StoreError.wrapping {
            try prepareStaging()
            try historyImages.clearStaging()
            try database.execute("BEGIN IMMEDIATE")
        }
        do {
            try StoreError.wrapping { try identity.adoptIfPutBack(file: file, stamping: syncStamping, at: time) }
        } catch {
            try? database.execute("ROLLBACK")
            throw error
        }
        self.kind = kind
        startTime = time
    }

    /// Records the open change as one history entry and commits it; the entry's sequence
    /// number, or nil if it changed nothing. A `summary` replaces the first line of a memo it
    /// touched as the entry's summary (a sync names its peer).
    @discardableResult
    func commit(summary: String? = nil) throws(StoreError) -> Int64? {
        guard let kind, let startTime, !database.isAutocommit else { throw .noOpenBatch }
        let before = lastRecordedChange
        try StoreError.wrapping {
            try finish(kind, target: nil, summary: summary, at: startTime)
            try database.execute("COMMIT")
            try noteSavedHistory()
        }
        end()
        return lastRecordedChange == before ? nil : lastRecordedChange
    }

    /// Discards the open change; nothing of it reaches the store or the history.
    func rollback() throws(StoreError) {
        guard kind != nil, !database.isAutocommit else { throw .noOpenBatch }
        defer { end() }
        try StoreError.wrapping { try database.execute("ROLLBACK") }
    }

    /// True while an open-ended change is open.
    var isOpen: Bool {
        startTime != nil && !database.isAutocommit
    }

    private func end() {
        kind = nil
        startTime = nil
        changeStamp = nil
    }

    /// The sync facts of the running local change, made at `time`: nil while the store keeps
    /// no versions. Taken once, on first use, so every memo the change touches shares them.
    func stamp(at time: Timestamp) throws -> SyncStamp? {
        if let changeStamp { return changeStamp }
        let stamp = try identity.localChangeStamp(at: time, file: file)
        changeStamp = .some(stamp)
        return stamp
    }

    /// The running change's sync facts, as `stamp(at:)` gives them, after making the store
    /// keep versions if it keeps none yet (an import: `SyncIdentity.becomeVersioned`). Asked
    /// once a memo, it reads the store only until the change holds facts: a store whose
    /// change has them keeps versions.
    func versionedStamp(at time: Timestamp) throws -> SyncStamp? {
        if case .some(.some(let stamp)) = changeStamp { return stamp }
        try identity.becomeVersioned()
        return try stamp(at: time)
    }

    /// After a saved change that moved the store's change number (a stamped change, a sync):
    /// the file notes it, so a backup of it put back later is known for one.
    private func noteSavedHistory() throws {
        guard kind == .sync || changeStamp.map({ $0 != nil }) == true else { return }
        try identity.noteHistory(on: file)
    }

    // MARK: Entries

    private func prepareStaging() throws {
        guard !hasStagingTable else { return }
        try historyImages.createStagingTable()
        hasStagingTable = true
    }

    /// Writes the staged images as a history entry, leaving out memos the change left as
    /// they were; no entry when nothing changed. A local change also stamps its memos' sync
    /// facts (`SyncStamping.stampStaged`), and every change keeps what an export reads from
    /// their rows (`SyncStamping.keepExportFactsOfStaged`).
    private func finish(_ kind: ChangeKind, target: Int64?, summary given: String? = nil, at time: Timestamp) throws {
        try historyImages.unstageUnchanged()
        let (count, summary) =
            try database.cached(
                """
                SELECT count(*), (SELECT coalesce((SELECT substr(content, 1, 200) FROM memo WHERE id = p.memo_id),
                                                  json_extract(p.before, '$.content'))
                                  FROM temp.pending_change p ORDER BY p.memo_id LIMIT 1)
                FROM temp.pending_change
                """
            ).firstRow([]) { ($0.int64(at: 0), $0.optionalString(at: 1) ?? "") } ?? (0, "")
        guard count > 0 else { return }
        if kind != .sync { try stampSyncFacts(of: kind, at: time) }
        try syncStamping.keepExportFactsOfStaged()
        try database.cached("INSERT INTO history(at, kind, target, memo_count, summary) VALUES (?1, ?2, ?3, ?4, ?5)")
            .run([
                .integer(time.millisecondsSince1970), .text(kind.rawValue), .integer(target),
                .integer(count), .text(given ?? MemoContent.firstLine(of: summary))
            ])
        let sequence = database.lastInsertedRowID
        try database.cached(
            "INSERT INTO history_memo(seq, memo_id, before) SELECT ?1, memo_id, before FROM temp.pending_change"
        )
        .run([.integer(sequence)])
        try historyImages.clearStaging()
        lastRecordedChange = sequence
    }

    /// The sync facts a local change leaves on the memos it touched (schema versions 5, 6). A
    /// store that keeps no versions yet (it never synced or imported) pays one read of its
    /// identity, but records deletes as tombstones, so a memo deleted before the first sync
    /// stays deleted.
    private func stampSyncFacts(of kind: ChangeKind, at time: Timestamp) throws {
        if let stamp = try stamp(at: time) {
            try syncStamping.stampStaged(stamp)
        } else if kind.mayDeleteMemos {
            try syncStamping.buryStagedDeletes(of: identity.storeID(), at: time)
        }
    }
}
