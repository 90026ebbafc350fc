import MemoStore

extension Notebook {
    /// Runs `body`, several commands of this session, as one: their changes are all saved, or,
    /// when `body` throws, none, and then this session's undo and redo, clock and uuids are as
    /// before too. What `memo/execute` runs when it is given several lines.
    ///
    /// With `asOneChange` the changes are one batch, one history entry that one `undo` takes
    /// back. Undos and redos cannot run in a batch: they run without (`asOneChange` false),
    /// each its own entry, still all or nothing. A store file they created is removed again with their changes (`abandonCreatedStoreFile`).
    package func allOrNothing<T>(asOneChange: Bool, _ body: () throws -> T) throws -> T {
        let undo = undoStack, redo = redoStack, clockMark = clock.current, uuidMark = uuids.mark
        do {
            guard asOneChange else { return try store.allOrNothing(body) }
            _ = try execute(.begin)
            do {
                let result = try body()
                _ = try execute(.save)
                return result
            } catch {
                _ = discardOpenBatch()
                throw error
            }
        } catch {
            (undoStack, redoStack) = (undo, redo)
            clock.rewind(to: clockMark)
            uuids.rewind(to: uuidMark)
            if let unsavedNewFile { abandonCreatedStoreFile(unsavedNewFile) }
            throw error
        }
    }
}
