extension MemoStore {
    /// Calls `body` with the id and the UTF-8 text of every memo, in one pass over the memo
    /// table (no tags, no dates): what an index of the memos by their text is built from.
    package func forEachText(_ body: (_ id: Int64, _ text: UnsafeRawBufferPointer) -> Void) throws(StoreError) {
        try StoreError.wrapping {
            let statement = try database.prepare("SELECT id, content FROM memo")
            while try statement.step() {
                statement.withBytes(at: 1) { body(statement.int64(at: 0), $0) }
            }
        }
    }
}
