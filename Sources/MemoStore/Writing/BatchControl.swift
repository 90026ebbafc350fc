/// Batches (`begin`, `save`, `rollback`): one open change that holds the write lock until
/// it is saved, recorded as one history entry; and `allOrNothing`, several changes saved
/// together or not at all.
struct BatchControl {
    let database: Database
    /// Records each change in the history, in the change's transaction.
    let recorder: ChangeRecorder

    /// Opens a batch begun at `time`: one write transaction whose changes this connection
    /// sees at once and other processes only after `saveBatch`. Another writer waits for it.
    func beginBatch(at time: Timestamp) throws(StoreError) {
        try recorder.begin(.batch, at: time)
    }

    /// Saves the open batch as one history entry; its sequence number, or nil if it
    /// changed nothing.
    func saveBatch() throws(StoreError) -> Int64? {
        guard hasOpenBatch else { throw .noOpenBatch }
        return try recorder.commit()
    }

    /// Discards the open batch; nothing of it reaches the store or the history.
    func rollbackBatch() throws(StoreError) {
        guard hasOpenBatch else { throw .noOpenBatch }
        try recorder.rollback()
    }

    /// Runs `body`, several changes, in one transaction: all of them are saved, each its own
    /// entry in the history, or, when `body` throws, none (a batch cannot be opened inside).
    func allOrNothing<T>(_ body: () throws -> T) throws -> T {
        guard !hasOpenTransaction else { throw StoreError.batchAlreadyOpen }
        let lastChange = recorder.lastRecordedChange
        do {
            return try database.atomically(body)
        } catch {
            recorder.lastRecordedChange = lastChange
            throw error
        }
    }

    /// True while a batch is open.
    var hasOpenBatch: Bool {
        recorder.kind == .batch && recorder.isOpen
    }

    /// True while a transaction is open on this connection: changes not yet written.
    var hasOpenTransaction: Bool {
        !database.isAutocommit
    }
}
