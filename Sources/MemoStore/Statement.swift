import CSQLite

/// A prepared statement, finalized when released.
///
/// It keeps no reference to its connection: connections close with `sqlite3_close_v2`,
/// which waits for the last statement to be finalized. A sealed store's statements keep its
/// `CommitObserver`, which saves the store once a statement has committed a change.
package final class Statement {
    private let handle: OpaquePointer
    package let sql: String
    private let commits: CommitObserver?

    init(handle: OpaquePointer, sql: String, commits: CommitObserver? = nil) {
        self.handle = handle
        self.sql = sql
        self.commits = commits
    }

    deinit {
        sqlite3_finalize(handle)
    }

    /// Resets the statement and binds `values` to its parameters `?1`, `?2`, …; any further
    /// parameter is NULL. (Clearing every binding first was a sixth of the binding's work.)
    package func bind(_ values: [SQLiteValue]) throws {
        sqlite3_reset(handle)
        if values.count < sqlite3_bind_parameter_count(handle) { sqlite3_clear_bindings(handle) }
        for (offset, value) in values.enumerated() {
            let index = Int32(offset + 1)
            let code: Int32
            switch value {
            case .integer(let number): code = sqlite3_bind_int64(handle, index, number)
            case .null: code = sqlite3_bind_null(handle, index)
            case .text(let text):
                var text = text
                code = text.withUTF8 { bindText(index, $0) }
            case .utf8(let bytes):
                code = bytes.withUnsafeBufferPointer { bindText(index, $0) }
            }
            try check(code)
        }
    }

    /// Binds UTF-8 bytes as text; SQLite copies them.
    private func bindText(_ index: Int32, _ bytes: UnsafeBufferPointer<UInt8>) -> Int32 {
        bytes.withMemoryRebound(to: CChar.self) { characters in
            guard let start = characters.baseAddress else {
                return sqlite3_bind_text(handle, index, "", 0, memo_sqlite_transient())
            }
            return sqlite3_bind_text64(
                handle, index, start, sqlite3_uint64(characters.count), memo_sqlite_transient(), UInt8(SQLITE_UTF8))
        }
    }

    /// Advances to the next row; false when the statement is done.
    package func step() throws -> Bool {
        let code = sqlite3_step(handle)
        switch code {
        case SQLITE_ROW: return true
        case SQLITE_DONE:
            try saveIfCommitted()
            return false
        default:
            let error = SQLiteError(connection: sqlite3_db_handle(handle), code: code, sql: sql)
            sqlite3_reset(handle)
            throw error
        }
    }

    /// Binds and runs a statement that returns no rows.
    package func run(_ values: [SQLiteValue] = []) throws {
        try bind(values)
        while try step() {}
    }

    /// Binds, runs and decodes the first row, if any, then resets the statement so it holds
    /// no read transaction open (a cached statement left mid-way would pin an old snapshot).
    package func firstRow<T>(_ values: [SQLiteValue] = [], _ decode: (Statement) throws -> T) throws -> T? {
        try bind(values)
        let row: T?
        do {
            row = try step() ? try decode(self) : nil
        } catch {
            sqlite3_reset(handle)
            throw error
        }
        // A write with RETURNING that ran outside a transaction commits here.
        sqlite3_reset(handle)
        try saveIfCommitted()
        return row
    }

    /// Saves a sealed store when this statement ended a transaction that changed it.
    private func saveIfCommitted() throws {
        guard let commits else { return }
        try commits.saveIfCommitted(autocommit: sqlite3_get_autocommit(sqlite3_db_handle(handle)) != 0)
    }

    /// The first column of the first row as an integer, if any.
    package func scalarInt(_ values: [SQLiteValue] = []) throws -> Int64? {
        try firstRow(values) { $0.isNull(at: 0) ? nil : $0.int64(at: 0) } ?? nil
    }

    /// How many columns each row has.
    package var columnCount: Int32 {
        sqlite3_column_count(handle)
    }

    package func isNull(at column: Int32) -> Bool {
        sqlite3_column_type(handle, column) == SQLITE_NULL
    }

    package func int64(at column: Int32) -> Int64 {
        sqlite3_column_int64(handle, column)
    }

    /// The column's text; SQLite guarantees UTF-8 for TEXT we stored, and invalid bytes
    /// written by other programs are repaired rather than trusted.
    package func string(at column: Int32) -> String {
        guard let bytes = sqlite3_column_text(handle, column) else { return "" }
        let count = Int(sqlite3_column_bytes(handle, column))
        return String(decoding: UnsafeBufferPointer(start: bytes, count: count), as: UTF8.self)
    }

    /// The column's text as the bytes SQLite holds, valid only inside `body`: for readers
    /// that copy them out without making a String (listing and exporting every memo). They
    /// are not checked: a reader must validate them (other programs may store invalid UTF-8).
    package func withBytes<Result>(at column: Int32, _ body: (UnsafeRawBufferPointer) -> Result) -> Result {
        guard let text = sqlite3_column_text(handle, column) else {
            return body(UnsafeRawBufferPointer(start: nil, count: 0))
        }
        return body(UnsafeRawBufferPointer(start: text, count: Int(sqlite3_column_bytes(handle, column))))
    }

    package func double(at column: Int32) -> Double {
        sqlite3_column_double(handle, column)
    }

    /// Whether the column holds a number (INTEGER or REAL), as opposed to text, a blob or NULL.
    package func isNumber(at column: Int32) -> Bool {
        let type = sqlite3_column_type(handle, column)
        return type == SQLITE_INTEGER || type == SQLITE_FLOAT
    }

    /// Whether the column holds text, as opposed to a number, a blob or NULL.
    package func isText(at column: Int32) -> Bool {
        sqlite3_column_type(handle, column) == SQLITE_TEXT
    }

    package func optionalString(at column: Int32) -> String? {
        isNull(at: column) ? nil : string(at: column)
    }

    private func check(_ code: Int32) throws {
        guard code == SQLITE_OK else {
            throw SQLiteError(connection: sqlite3_db_handle(handle), code: code, sql: sql)
        }
    }
}
