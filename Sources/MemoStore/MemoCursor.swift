/// A lazy walk over the memos of a query: one row is decoded per call, so listing or
/// exporting the whole store keeps memory flat (Core Data's faulting, made explicit).
package final class MemoCursor {
    private let statement: Statement
    private let readable: ReadableText
    private var isDone = false
    /// How many rows it has given: none for a search that found nothing, once walked.
    package private(set) var rowsGiven = 0

    init(statement: Statement, readable: ReadableText) {
        self.statement = statement
        self.readable = readable
    }

    /// `memo`'s text as a person here reads it (`MemoStore.readableText(of:)`), for a
    /// listing of the memos this cursor gives: a query only for a text holding a `#`.
    package func readableText(of memo: Memo) throws(StoreError) -> String {
        try readable.text(of: memo)
    }

    /// The next memo, or nil at the end. An I/O error mid-way is thrown, never a crash.
    package func next() throws(StoreError) -> Memo? {
        try nextRow()?.memo
    }

    /// Every memo left, for answers that are one value (a JSON-RPC result); listings stream.
    package func collect() throws(StoreError) -> [Memo] {
        var memos: [Memo] = []
        while let memo = try next() { memos.append(memo) }
        return memos
    }

    /// The next row, read in place, or nil at the end: valid until the cursor moves again.
    package func nextRow() throws(StoreError) -> MemoRow? {
        guard !isDone else { return nil }
        try Interruption.check()
        let hasRow = try StoreError.wrapping { try statement.step() }
        guard hasRow else {
            isDone = true
            return nil
        }
        rowsGiven += 1
        return MemoRow(statement: statement)
    }
}
