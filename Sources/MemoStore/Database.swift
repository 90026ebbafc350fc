import CSQLite

/// One SQLite connection. It owns its handle and its cached statements.
///
/// It refuses to prepare any statement that writes memo rows (`memoRowTables`) unless the
/// statement is prepared while memo's one writer holds the right to (`writingMemoRows`).
///
/// Deliberately not `Sendable`: a connection is used by one thread at a time.
package final class Database {
    private let handle: OpaquePointer
    private var statementCache: [StatementKey: Statement] = [:]
    /// Statements prepared while the right to write memo rows was held. SQLite asks the
    /// authorizer when it prepares a statement, not when it runs one, so these are reused
    /// only while the right is held again: the same SQL outside it is prepared, and refused.
    private var writerStatementCache: [StatementKey: Statement] = [:]
    /// The statements of `FixedSQL`, by its slot, apart for the writer as the caches by text are.
    private var fixedStatements: [Statement?] = []
    private var fixedWriterStatements: [Statement?] = []
    /// How many `writingMemoRows` calls are running: nested calls of the writer's parts each
    /// hold the right, and it ends with the outermost.
    private var memoRowWriters = 0
    private var savepointDepth = 0
    /// True while a failed change is being rolled back: Ctrl-C must not stop that.
    private var isRollingBack = false

    /// SQLite virtual-machine steps between two looks at `Interruption`.
    private static let progressInterval: Int32 = 1000

    /// Process-wide settings, made once before the first connection opens.
    private static let configureSQLite: Void = {
        _ = memo_sqlite_stop_counting_memory()
    }()

    /// Opens a connection; `path` is a file path or `:memory:`.
    package init(path: String, flags: Int32 = SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE) throws {
        Self.configureSQLite
        var connection: OpaquePointer?
        let code = sqlite3_open_v2(path, &connection, flags | SQLITE_OPEN_NOMUTEX, nil)
        guard code == SQLITE_OK, let connection else {
            let error = SQLiteError(connection: connection, code: code)
            sqlite3_close_v2(connection)
            throw error
        }
        let defended = memo_sqlite_defend(connection)
        guard defended == SQLITE_OK else {
            let error = SQLiteError(connection: connection, code: defended)
            sqlite3_close_v2(connection)
            throw error
        }
        handle = connection
        sqlite3_extended_result_codes(handle, 1)
        // Stops the running statement with SQLITE_INTERRUPT once Ctrl-C was pressed, except
        // while rolling back. The connection outlives the handler: it is removed in deinit.
        sqlite3_progress_handler(
            handle, Self.progressInterval,
            { context in
                guard let context, Interruption.isRequested else { return 0 }
                return Unmanaged<Database>.fromOpaque(context).takeUnretainedValue().isRollingBack ? 0 : 1
            }, Unmanaged.passUnretained(self).toOpaque())
        // The write rule, asked as each statement is prepared, and prepared again after a
        // change of the schema (at its next step). The context is this object, unretained:
        // deinit removes the authorizer before the connection closes, so SQLite never calls
        // it with a freed Database.
        sqlite3_set_authorizer(
            handle,
            { context, action, first, second, _, _ in
                guard let context else { return SQLITE_OK }
                return Unmanaged<Database>.fromOpaque(context).takeUnretainedValue().authorize(action, first, second)
            }, Unmanaged.passUnretained(self).toOpaque())
        StateDigest.register(on: handle)
        SearchMatch.register(on: handle)
        ActivityAggregate.register(on: handle)
    }

    deinit {
        sqlite3_commit_hook(handle, nil, nil)
        sqlite3_progress_handler(handle, 0, nil, nil)
        sqlite3_set_authorizer(handle, nil, nil)
        statementCache.removeAll()
        writerStatementCache.removeAll()
        fixedStatements.removeAll()
        fixedWriterStatements.removeAll()
        sqlite3_close_v2(handle)
    }

    // MARK: The write rule

    /// The tables whose rows only memo's one writer writes (`MemoTable` with its parts
    /// `HistoryImages` and `SyncStamping`, and the migrations): the memos, their tags, search
    /// rows, links and tombstones, and the staging of a change's before-images.
    ///
    /// The tables FTS5 keeps `memo_search` in (`memo_search_data`, `_idx`, `_content`,
    /// `_docsize`, `_config`) are not here: FTS5 writes them with statements of its own,
    /// which SQLite prepares and authorizes while it runs another (a write of `memo_search`,
    /// but also a later write, savepoint or commit that makes FTS5 save the rows it holds in
    /// memory, outside the writer). SQLite's defensive mode (`memo_sqlite_defend`) makes
    /// them read-only to every statement but those.
    static let memoRowTables: Set<String> = [
        "memo", "memo_tag", "memo_search", "memo_link", "memo_tombstone", "pending_change"
    ]

    /// Runs `body` with the right to write memo rows: only a holder of `token` (the writer)
    /// can call it. Every statement that `body` prepares or runs may write them.
    func writingMemoRows<T>(_ token: MemoRowWriteToken, _ body: () throws -> T) rethrows -> T {
        try holdingTheWriteRight(body)
    }

    #if DEBUG
        /// Tests only, and only in debug builds: runs `body` as another program (or an older memo)
        /// writing the file would, with the right to write memo rows, to set up a store as it
        /// would find one. A build that ships has no such door.
        func asAnotherProgram<T>(_ body: () throws -> T) rethrows -> T {
            try holdingTheWriteRight(body)
        }
    #endif

    private func holdingTheWriteRight<T>(_ body: () throws -> T) rethrows -> T {
        memoRowWriters += 1
        defer { memoRowWriters -= 1 }
        return try body()
    }

    /// SQLite's question for each action of a statement being prepared: a write of a memo row
    /// table (its rows, the table itself, or a trigger on it that a writer's statement would
    /// fire) is denied unless the writer holds the right. Table names are compared as SQL
    /// compares them, without case, in any schema (`main.memo`, `temp.pending_change`).
    private func authorize(_ action: Int32, _ first: UnsafePointer<CChar>?, _ second: UnsafePointer<CChar>?) -> Int32 {
        guard memoRowWriters == 0 else { return SQLITE_OK }
        let table: UnsafePointer<CChar>?
        switch action {
        case SQLITE_INSERT, SQLITE_UPDATE, SQLITE_DELETE, SQLITE_DROP_TABLE, SQLITE_DROP_TEMP_TABLE, SQLITE_DROP_VTABLE:
            table = first
        case SQLITE_ALTER_TABLE, SQLITE_CREATE_TRIGGER, SQLITE_CREATE_TEMP_TRIGGER:
            table = second
        default:
            return SQLITE_OK
        }
        guard let table, Self.memoRowTables.contains(String(cString: table).lowercased()) else { return SQLITE_OK }
        return SQLITE_DENY
    }

    /// Runs one or more statements that take no parameters (schema SQL, pragmas).
    package func execute(_ sql: String) throws {
        let code = sqlite3_exec(handle, sql, nil, nil, nil)
        guard code == SQLITE_OK else {
            throw SQLiteError(connection: handle, code: code, sql: sql)
        }
        try commits?.saveIfCommitted(autocommit: isAutocommit)
    }

    // MARK: Sealed stores (`SealedStoreFile`)

    /// What saves a sealed store after each commit, or nil for a store SQLite keeps in a file.
    private var commits: CommitObserver?

    /// Makes this empty connection's database the SQLite file image at `image`, which must
    /// come from `sqlite3_malloc64`: SQLite owns it from here on (it frees it on failure too)
    /// and grows it as the database grows. Then `save` runs after every commit, once no
    /// transaction is open: a sealed store writes its file then (`CommitObserver`).
    func load(image: UnsafeMutableRawPointer, count: Int, savingEachCommit save: @escaping () throws -> Void) throws {
        // An image of a store in WAL mode (header bytes 18 and 19) is made a rollback-journal
        // one: a database in memory has no write-ahead log.
        let header = image.assumingMemoryBound(to: UInt8.self)
        if count > 19, header[18] == 2 || header[19] == 2 { (header[18], header[19]) = (1, 1) }
        let loaded = sqlite3_deserialize(
            handle, "main", image.assumingMemoryBound(to: UInt8.self), Int64(count), Int64(count),
            UInt32(SQLITE_DESERIALIZE_FREEONCLOSE | SQLITE_DESERIALIZE_RESIZEABLE))
        guard loaded == SQLITE_OK else { throw SQLiteError(connection: handle, code: loaded) }
        // A store in memory may grow as large as a file would (SQLite's default stops at 1 GiB).
        var limit = Int64.max
        sqlite3_file_control(handle, "main", SQLITE_FCNTL_SIZE_LIMIT, &limit)
        let commits = CommitObserver(connection: handle, save: save)
        self.commits = commits
        sqlite3_commit_hook(
            handle,
            { context in
                guard let context else { return 0 }
                Unmanaged<CommitObserver>.fromOpaque(context).takeUnretainedValue().noteCommit()
                return 0
            }, Unmanaged.passUnretained(commits).toOpaque())
    }

    /// Runs `body` with the bytes of the main database as a file would hold them; they are
    /// valid only inside `body`. A database in memory lends its own bytes, others a copy.
    func withImage<Result>(_ body: (UnsafeRawBufferPointer) throws -> Result) throws -> Result {
        var size: Int64 = 0
        if let bytes = sqlite3_serialize(handle, "main", &size, UInt32(SQLITE_SERIALIZE_NOCOPY)) {
            return try body(UnsafeRawBufferPointer(start: bytes, count: Int(size)))
        }
        guard let bytes = sqlite3_serialize(handle, "main", &size, 0) else {
            throw SQLiteError(connection: handle, code: SQLITE_NOMEM)
        }
        defer { sqlite3_free(bytes) }
        return try body(UnsafeRawBufferPointer(start: bytes, count: Int(size)))
    }

    /// Makes this connection's database, which must be empty, a copy of `image` (the bytes of
    /// an SQLite file). SQLite copies it page by page (its backup API) from a read-only
    /// connection over the bytes, so this database stays of its kind: in memory, it keeps its
    /// journal in memory and grows without limit, which a database loaded straight from bytes
    /// (`sqlite3_deserialize`) does not, and each of its transactions stays as fast: loaded
    /// straight from a copy of the bytes, a store writes each commit's pages into them too,
    /// and a replay of 2,000 adds ran 4% more instructions, for 0.13 million fewer at start.
    func restore(from image: UnsafeRawBufferPointer) throws {
        var source: OpaquePointer?
        let opened = sqlite3_open_v2(":memory:", &source, SQLITE_OPEN_READWRITE | SQLITE_OPEN_NOMUTEX, nil)
        defer { sqlite3_close_v2(source) }
        guard opened == SQLITE_OK, let source, let bytes = image.baseAddress else {
            throw SQLiteError(connection: source, code: opened == SQLITE_OK ? SQLITE_CANTOPEN : opened)
        }
        // Read-only: SQLite never writes through the pointer, which points at constant bytes.
        let loaded = sqlite3_deserialize(
            source, "main", UnsafeMutablePointer(mutating: bytes.assumingMemoryBound(to: UInt8.self)),
            Int64(image.count), Int64(image.count), UInt32(SQLITE_DESERIALIZE_READONLY))
        guard loaded == SQLITE_OK else { throw SQLiteError(connection: source, code: loaded) }
        guard let backup = sqlite3_backup_init(handle, "main", source, "main") else {
            throw SQLiteError(connection: handle, code: sqlite3_errcode(handle))
        }
        let copied = sqlite3_backup_step(backup, -1), finished = sqlite3_backup_finish(backup)
        guard copied == SQLITE_DONE, finished == SQLITE_OK else {
            throw SQLiteError(connection: handle, code: copied == SQLITE_DONE ? finished : copied)
        }
    }

    /// Prepares a fresh statement that the caller owns.
    package func prepare(_ sql: String) throws -> Statement {
        var statement: OpaquePointer?
        let code = sqlite3_prepare_v3(handle, sql, -1, UInt32(SQLITE_PREPARE_PERSISTENT), &statement, nil)
        guard code == SQLITE_OK, let statement else {
            throw SQLiteError(connection: handle, code: code, sql: sql)
        }
        return Statement(handle: statement, sql: sql, commits: commits)
    }

    /// A statement prepared once per connection and reused: for fixed SQL on hot paths.
    /// Never hand one to code that keeps stepping it while the same SQL runs again.
    package func cached(_ sql: String) throws -> Statement {
        let key = StatementKey(sql: sql), writing = memoRowWriters > 0
        if let statement = writing ? writerStatementCache[key] : statementCache[key] { return statement }
        let statement = try prepare(sql)
        if writing { writerStatementCache[key] = statement } else { statementCache[key] = statement }
        return statement
    }

    /// The statement of `fixed`, prepared once per connection and reused as `cached(_: String)`'s
    /// are, found by its slot.
    package func cached(_ fixed: FixedSQL) throws -> Statement {
        if memoRowWriters > 0 {
            return try statement(of: fixed, in: &fixedWriterStatements)
        }
        return try statement(of: fixed, in: &fixedStatements)
    }

    private func statement(of fixed: FixedSQL, in slots: inout [Statement?]) throws -> Statement {
        if fixed.slot < slots.count, let statement = slots[fixed.slot] { return statement }
        let statement = try prepare(fixed.sql)
        if fixed.slot >= slots.count {
            slots.append(contentsOf: repeatElement(nil, count: fixed.slot + 1 - slots.count))
        }
        slots[fixed.slot] = statement
        return statement
    }

    /// A cached statement's key. The cache is asked several times a memo on the hot paths
    /// (an import, a replay), for SQL hundreds of bytes long, so the key hashes the length
    /// and the last bytes instead of all of them; equality is the string's, which is
    /// immediate for the same string (a `static let` or a literal passes the same storage).
    private struct StatementKey: Hashable {
        let sql: String

        func hash(into hasher: inout Hasher) {
            var sql = sql
            sql.withUTF8 { bytes in
                hasher.combine(bytes.count)
                hasher.combine(
                    bytes: UnsafeRawBufferPointer(UnsafeBufferPointer(rebasing: bytes.suffix(Self.hashedLength))))
            }
        }

        private static let hashedLength = 32
    }

    /// The integer a single-value query such as a pragma returns.
    package func integer(_ sql: String) throws -> Int64 {
        try cached(sql).scalarInt() ?? 0
    }

    /// Runs `body` atomically: in a transaction, or in a savepoint inside an open one.
    /// The transaction statements are cached like any other: every change runs them.
    package func atomically<T>(_ body: () throws -> T) throws -> T {
        let outermost = isAutocommit
        let savepoint = "memo_\(savepointDepth)"
        try cached(outermost ? "BEGIN IMMEDIATE" : "SAVEPOINT \(savepoint)").run()
        savepointDepth += 1
        defer { savepointDepth -= 1 }
        do {
            let result = try body()
            try cached(outermost ? "COMMIT" : "RELEASE \(savepoint)").run()
            return result
        } catch {
            isRollingBack = true
            defer { isRollingBack = false }
            if outermost {
                try? cached("ROLLBACK").run()
            } else {
                try? cached("ROLLBACK TO \(savepoint)").run()
                try? cached("RELEASE \(savepoint)").run()
            }
            throw error
        }
    }

    /// False while a transaction is open.
    package var isAutocommit: Bool {
        sqlite3_get_autocommit(handle) != 0
    }

    package var isReadOnly: Bool {
        sqlite3_db_readonly(handle, "main") == 1
    }

    package var lastInsertedRowID: Int64 {
        sqlite3_last_insert_rowid(handle)
    }

    package var changes: Int {
        Int(sqlite3_changes64(handle))
    }

    /// Rows inserted, changed or deleted through this connection since it opened.
    var totalChanges: Int64 {
        sqlite3_total_changes64(handle)
    }

    /// Whether the main database file was deleted, renamed or moved since this connection
    /// opened it: its path now names another file, or none.
    var fileHasMoved: Bool {
        var moved: Int32 = 0
        return sqlite3_file_control(handle, "main", SQLITE_FCNTL_HAS_MOVED, &moved) == SQLITE_OK && moved != 0
    }

    /// Waits up to `milliseconds` for another connection's lock before failing with BUSY.
    package func setBusyTimeout(milliseconds: Int32) {
        sqlite3_busy_timeout(handle, milliseconds)
    }

    package static var libraryVersion: String {
        String(cString: sqlite3_libversion())
    }
}
