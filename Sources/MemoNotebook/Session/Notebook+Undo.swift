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
    /// Runs one change of this session (a command, or a server method such as `memo/add`)
    /// and keeps the undo stack in step: a new change goes on top and empties the redo
    /// stack; a change inside a batch is counted until `save`.
    package func tracking<T>(_ command: Command? = nil, _ body: () throws -> T) rethrows -> T {
        let lastChange = store.lastRecordedChange, rowsChanged = store.totalChanges
        let result = try body()
        if store.hasOpenBatch, store.totalChanges != rowsChanged, command != .begin { unsavedChanges += 1 }
        guard let recorded = store.lastRecordedChange, recorded != lastChange, command != .undo, command != .redo else { return result }
        undoStack.append(recorded)
        redoStack.removeAll()
        return result
    }

    func begin() throws -> Outcome {
        guard scope == .session else {
            throw CommandError.invalid("'begin' opens a batch in a session (the REPL, a script, piped input); one-shot commands are saved at once")
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
    package func discardOpenBatch() -> Int? {
        guard store.hasOpenBatch, (try? store.rollbackBatch()) != nil else { return nil }
        defer { unsavedChanges = 0 }
        return unsavedChanges
    }

    func undo() throws -> HistoryEntry {
        guard !store.hasOpenBatch else { throw CommandError.invalid("save or roll back the batch before 'undo'") }
        switch scope {
        case .oneShot:
            guard let latest = try store.latestUndoableChange() else { throw StoreError.nothingToUndo }
            return try store.undo(latest.sequence, at: changeTime)
        case .session:
            // A change another session undid meanwhile is no longer this session's to undo.
            while let last = undoStack.last, try store.historyEntry(last)?.isUndone != false { undoStack.removeLast() }
            guard let last = undoStack.last else { throw StoreError.nothingToUndo }
            let entry = try store.undo(last, at: changeTime)
            undoStack.removeLast()
            redoStack.append(last)
            return entry
        }
    }

    func redo() throws -> HistoryEntry {
        guard !store.hasOpenBatch else { throw CommandError.invalid("save or roll back the batch before 'redo'") }
        switch scope {
        case .oneShot:
            guard let latest = try store.latestRedoableChange() else { throw StoreError.nothingToRedo }
            return try store.redo(latest.sequence, at: changeTime)
        case .session:
            while let last = redoStack.last, try store.historyEntry(last)?.isUndone != true { redoStack.removeLast() }
            guard let last = redoStack.last else { throw StoreError.nothingToRedo }
            let entry = try store.redo(last, at: changeTime)
            redoStack.removeLast()
            undoStack.append(last)
            return entry
        }
    }
}
