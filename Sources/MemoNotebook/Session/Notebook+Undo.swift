import MemoStore

/// Whose changes a session's `undo` walks back.
package enum SessionScope: Equatable, Sendable {
    /// The REPL, piped input, a script, the server: its own changes, newest first.
    case session
    /// A one-shot command: the store's most recent change that can be undone, whoever made it.
    case oneShot
}

/// Batches (`begin`, `save`, `rollback`) and `undo` / `redo` over the store's history.
extension Notebook {
    /// Runs one change of this session (a command `execute` runs) and keeps the undo stack in
    /// step: a new change goes on top and empties the redo stack; a change inside a batch is
    /// counted until `save`.
    func tracking<T>(_ command: Command? = nil, _ body: () throws -> T) rethrows -> T {
        let lastChange = store.lastRecordedChange, rowsChanged = store.totalChanges
        let result = try body()
        if store.hasOpenBatch, store.totalChanges != rowsChanged, command != .begin { unsavedChanges += 1 }
        guard let recorded = store.lastRecordedChange, recorded != lastChange, command?.joinsUndoStack ?? true
        else { return result }
        undoStack.append(recorded)
        redoStack.removeAll()
        return result
    }

    func begin() throws -> Outcome {
        guard scope == .session else {
            throw CommandError.invalid(
                "'begin' opens a batch in a session (the REPL, a script, piped input); one-shot commands are saved at once"
            )
        }
        try store.beginBatch(at: changeTime)
        unsavedChanges = 0
        return .batchBegun
    }

    func save() throws -> Outcome {
        try store.saveBatch()
        defer { unsavedChanges = 0 }
        return .batchSaved(changes: unsavedChanges)
    }

    func rollback() throws -> Outcome {
        try store.rollbackBatch()
        defer { unsavedChanges = 0 }
        return .batchRolledBack(changes: unsavedChanges)
    }

    /// Rolls back a batch left open when the session ends; how many changes it discarded,
    /// or nil when no batch was open.
    func discardOpenBatch() -> Int? {
        guard store.hasOpenBatch, (try? store.rollbackBatch()) != nil else { return nil }
        if let unsavedNewFile { abandonCreatedStoreFile(unsavedNewFile) }
        defer { unsavedChanges = 0 }
        return unsavedChanges
    }

    /// A one-shot `undo` takes the store's latest change; a session's, the newest of its own
    /// that no other session undid meanwhile. The store picks it in the undo's transaction.
    func undo() throws -> HistoryEntry {
        try step("undo", from: \.undoStack, to: \.redoStack, store.undo)
    }

    /// `undo --sync`: the store's latest sync, in any session. Where a person can answer
    /// (`confirmation`), it says what will happen and asks first.
    func undoSync() throws -> Outcome {
        guard !store.hasOpenBatch else { throw CommandError.invalid("save or roll back the batch before 'undo'") }
        guard let preview = try store.syncUndoPreview() else { throw StoreError.refused(.noSyncToUndo) }
        if let confirmation, !confirmation(SyncUndoWording.question(preview)) {
            return .unchanged("nothing undone")
        }
        var undone = preview
        undone.sync = try store.undo(.latestSync, at: changeTime)
        if scope == .session {
            // A session's `redo` takes back its own undos, this one too.
            undoStack.removeAll { $0 == undone.sync.sequence }
            redoStack.append(undone.sync.sequence)
        }
        return .syncUndone(undone)
    }

    /// `undo` taken back, as `undo` picks its change: the newest of the session's undos.
    func redo() throws -> HistoryEntry {
        try step("redo", from: \.redoStack, to: \.undoStack, store.redo)
    }

    /// `undo` or `redo` (`command`, which `change` does in the store): of the store's latest
    /// change, one-shot; in a session, of the newest on `stack`, which then moves to `other`.
    private func step(
        _ command: String, from stack: ReferenceWritableKeyPath<Notebook, [Int64]>,
        to other: ReferenceWritableKeyPath<Notebook, [Int64]>,
        _ change: (HistoryChoice, Timestamp) throws(StoreError) -> HistoryEntry
    ) throws -> HistoryEntry {
        guard !store.hasOpenBatch else { throw CommandError.invalid("save or roll back the batch before '\(command)'") }
        switch scope {
        case .oneShot:
            return try change(.latest, changeTime)
        case .session:
            let entry = try namingOtherProcesses { () throws(StoreError) in
                try change(.newest(of: self[keyPath: stack]), changeTime)
            }
            move(entry.sequence, from: &self[keyPath: stack], to: &self[keyPath: other])
            return entry
        }
    }

    /// This session's newest change that is not undone.
    package var newestOwnChange: Int64? { undoStack.last }

    /// Takes back this session's change `sequence` for a step that then did not happen (a
    /// move whose edit the editor refused): undone in the store, and off this session's undo
    /// and redo stacks, so neither brings it back here. The undo's entry, or an error when a
    /// later change to its memos forbids the undo. Run as `Command.withdraw`.
    func withdraw(_ sequence: Int64) throws -> HistoryEntry {
        let entry = try store.undo(sequence, at: changeTime)
        undoStack.removeAll { $0 == sequence }
        return entry
    }

    /// Takes `sequence` off `stack` with the entries above it (another session undid or redid
    /// those meanwhile) and puts it on `other`.
    private func move(_ sequence: Int64, from stack: inout [Int64], to other: inout [Int64]) {
        if let index = stack.lastIndex(of: sequence) { stack.removeSubrange(index...) }
        other.append(sequence)
    }

    /// A refusal over a later change this session did not make says so: the session cannot
    /// undo that change, a one-shot `memo undo` can.
    private func namingOtherProcesses(_ body: () throws(StoreError) -> HistoryEntry) throws(StoreError) -> HistoryEntry
    {
        do {
            return try body()
        } catch .refused(.undoRefused(let entry, let later, _)) where !isOwn(later) {
            throw .undoRefused(entry, later: later, fromAnotherProcess: true)
        } catch .refused(.redoRefused(let entry, let later, _)) where !isOwn(later) {
            throw .redoRefused(entry, later: later, fromAnotherProcess: true)
        }
    }

    private func isOwn(_ change: HistoryEntry) -> Bool {
        undoStack.contains(change.sequence) || redoStack.contains(change.sequence)
    }
}
