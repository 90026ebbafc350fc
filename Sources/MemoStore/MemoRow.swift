/// The memo a `MemoCursor` stands on, read in place: numbers directly, text as the bytes
/// SQLite holds. A listing or export of every memo can copy those bytes to its output
/// without making a `Memo` and its Strings for each row (BENCHMARKS.md). Valid only until
/// the cursor moves.
package struct MemoRow {
    fileprivate let statement: Statement

    init(statement: Statement) {
        self.statement = statement
    }

    package var id: Int64 { statement.int64(at: 0) }
    package var insertDate: Timestamp { Timestamp(millisecondsSince1970: statement.int64(at: 3)) }
    package var updateDate: Timestamp? {
        statement.isNull(at: 4) ? nil : Timestamp(millisecondsSince1970: statement.int64(at: 4))
    }

    /// The uuid's bytes (unchecked: see `Statement.withBytes`).
    package func withUUID<Result>(_ body: (UnsafeRawBufferPointer) -> Result) -> Result {
        statement.withBytes(at: 1, body)
    }

    /// The text's bytes (unchecked).
    package func withContent<Result>(_ body: (UnsafeRawBufferPointer) -> Result) -> Result {
        statement.withBytes(at: 2, body)
    }

    /// The tag names' bytes, separated by single spaces, in name order; empty for none (unchecked).
    package func withTagNames<Result>(_ body: (UnsafeRawBufferPointer) -> Result) -> Result {
        statement.withBytes(at: 5, body)
    }

    /// The bytes of the memo's sync version as JSON (`MemoVersion.jsonSQL`), or nil when the
    /// query did not read versions or the memo has none yet.
    package func withVersion<Result>(_ body: (UnsafeRawBufferPointer?) -> Result) -> Result {
        guard statement.columnCount > 6, !statement.isNull(at: 6) else { return body(nil) }
        return statement.withBytes(at: 6, body)
    }

    /// The bytes of the memo's links as JSON (`SyncRecord.Link.jsonSQL`), or nil when the
    /// query did not read them or the memo has none.
    package func withLinks<Result>(_ body: (UnsafeRawBufferPointer?) -> Result) -> Result {
        guard statement.columnCount > 7, !statement.isNull(at: 7) else { return body(nil) }
        return statement.withBytes(at: 7, body)
    }

    /// The whole memo, decoded (invalid UTF-8 repaired).
    package var memo: Memo {
        MemoReader.decodeMemo(from: statement)
    }
}
