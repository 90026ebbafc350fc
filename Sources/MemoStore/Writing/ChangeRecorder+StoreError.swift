extension ChangeRecorder {
    /// Runs `body` as one saved change of `kind` made at `time`, in one transaction, recorded
    /// in the history. Inside another recorded change (an import's merges, a batch's
    /// commands) it is part of that one. Errors of `body` pass through; SQLite's become
    /// `StoreError`, the only errors the store's callers handle.
    func recordingChange<T>(
        _ kind: ChangeKind, target: Int64? = nil, at time: Timestamp,
        _ body: () throws -> T
    ) throws -> T {
        do {
            return try record(kind, target: target, at: time, body)
        } catch let error as SQLiteError {
            throw StoreError(error)
        }
    }

    /// `recordingChange` for the store's own write operations, which only fail with store errors.
    func recorded<T>(
        _ kind: ChangeKind, target: Int64? = nil, at time: Timestamp, _ body: () throws -> T
    ) throws(StoreError) -> T {
        try StoreError.wrapping { try recordingChange(kind, target: target, at: time, body) }
    }
}
