/// Batches (`begin`, `save`, `rollback`): one open change that holds the write lock until
/// it is saved, recorded as one history entry.
extension MemoStore {
    /// Opens a batch begun at `time`: one write transaction whose changes this connection
    /// sees at once and other processes only after `saveBatch`. Another writer waits for it.
    package func beginBatch(at time: Timestamp) throws(StoreError) {
        try recorder.begin(.batch, at: time)
    }

    /// Saves the open batch as one history entry; its sequence number, or nil if it
    /// changed nothing.
    @discardableResult
    package func saveBatch() throws(StoreError) -> Int64? {
        guard hasOpenBatch else { throw .noOpenBatch }
        return try recorder.commit()
    }

    /// Discards the open batch; nothing of it reaches the store or the history.
    package func rollbackBatch() throws(StoreError) {
        guard hasOpenBatch else { throw .noOpenBatch }
        try recorder.rollback()
    }

    /// True while a batch is open.
    package var hasOpenBatch: Bool {
        recorder.kind == .batch && recorder.isOpen
    }
}
