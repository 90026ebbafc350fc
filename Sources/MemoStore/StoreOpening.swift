import CSQLite
import FoundationEssentials
import Glibc

extension MemoStore {
    /// Which missing places opening a store file creates: the file always; its folders only
    /// for the default store (the first run), never for a path someone gave, where a missing
    /// folder is most often a disk that is not mounted.
    package enum MissingFolders: Sendable {
        case refuse
        case create
    }
}

/// A store's connection as opening left it: the file found (or created) and judged to be a
/// memo store, its schema migrated to the current version, WAL and foreign keys on. Every
/// statement that runs before the store is usable is here, so nothing else needs to know
/// about files of other programs, newer schemas or half-made stores.
struct StoreOpening {
    let location: StoreLocation
    let database: Database
    /// The file opening created, or nil when it was there (or the store is in memory).
    var createdFile: CreatedStoreFile?
    /// The sealed file a sealed store was opened from; nil for every other store.
    var sealedFile: SealedStoreFile?

    /// How long a writer waits for another process's lock before reporting "busy".
    static let busyTimeoutMilliseconds: Int32 = 10_000

    /// Opens the store at `location`, creating or migrating it as needed.
    ///
    /// A file that is not SQLite, another program's database, or a store of a newer schema
    /// is refused before anything is written to it, so the file stays byte-for-byte the same.
    static func open(
        _ location: StoreLocation, missingFolders: MemoStore.MissingFolders
    ) throws(StoreError) -> StoreOpening {
        switch location {
        case .memory:
            return try inMemory(standingInFor: .memory)
        case .file(let path):
            let absolutePath = Self.absolute(path)
            if let refusal = Self.companionRefusal(absolutePath) {
                throw .notAMemoStore(path: absolutePath, reason: refusal)
            }
            // SQLite gives the WAL and shared-memory files the store file's mode.
            var createdFolders: [String] = []
            switch missingFolders {
            case .refuse: try PrivateFiles.requireParentFolder(of: absolutePath)
            case .create: createdFolders = try PrivateFiles.createParentFolders(of: absolutePath)
            }
            var attempts = 0
            while true {
                let created =
                    try PrivateFiles.createFile(at: absolutePath)
                    ? CreatedStoreFile(path: absolutePath, folders: createdFolders) : nil
                let opening: StoreOpening
                do {
                    opening = try openFile(absolutePath, created: created)
                } catch .notAMemoStore(_, reason: Self.notSQLite)
                    where created == nil && SealedStoreFile.isSealed(absolutePath)
                {
                    return try openSealed(absolutePath)
                } catch {
                    // Its connection is closed: a file made for a store that failed to open goes.
                    created?.removeIfUnused()
                    throw error
                }
                // Opened just as another process removed the empty file its failed first
                // command had created (`CreatedStoreFile`): this one is gone, open the path again.
                attempts += 1
                guard opening.database.fileHasMoved, attempts < 3 else { return opening }
            }
        }
    }

    /// Opens and prepares the store file at `path`, which exists.
    private static func openFile(_ path: String, created: CreatedStoreFile?) throws(StoreError) -> StoreOpening {
        PrivateFiles.matchCompanionModes(of: path, suffixes: ["-wal", "-shm"])
        let database: Database
        do {
            database =
                if Self.isReadableOnlyAsItIs(path) {
                    try Database(path: Self.immutableURI(path), flags: SQLITE_OPEN_READONLY | SQLITE_OPEN_URI)
                } else {
                    try Database(path: path, flags: SQLITE_OPEN_READWRITE)
                }
        } catch {
            throw .cannotOpen(path: path, reason: Self.reason(error))
        }
        let opening = StoreOpening(location: .file(path: path), database: database, createdFile: created)
        try opening.prepareSchema(path: path)
        return opening
    }

    /// An empty store in memory standing in for the file at `path` (`MemoStore.standIn`).
    static func standIn(for path: String) throws(StoreError) -> StoreOpening {
        try inMemory(standingInFor: .file(path: Self.absolute(path)))
    }

    /// An empty store in memory: a copy of the empty store's image when it is of the current
    /// version (`EmptyStoreImage`), else (or when `fromImage` is false) made by the migrations.
    static func inMemory(
        standingInFor location: StoreLocation, fromImage: Bool = EmptyStoreImage.isCurrent
    ) throws(StoreError) -> StoreOpening {
        let database = try StoreError.wrapping { try Database(path: ":memory:") }
        let opening = StoreOpening(location: location, database: database)
        if fromImage {
            try opening.prepareFromImage()
        } else {
            try opening.prepareSchema(path: ":memory:")
        }
        return opening
    }

    /// Makes the empty database in memory a copy of the empty store's image, with an id of
    /// its own, and sets the connection as `prepareSchema` does.
    private func prepareFromImage() throws(StoreError) {
        database.setBusyTimeout(milliseconds: Self.busyTimeoutMilliseconds)
        try StoreError.wrapping {
            try database.restore(from: EmptyStoreImage.bytes)
            try SyncIdentity(database: database).beginNewStore(file: StoreFile(location)?.identity ?? "")
            try database.execute("PRAGMA foreign_keys = ON")
        }
    }

    /// Whether anything exists at `path`: opening judges what it is.
    static func fileExists(at path: String) -> Bool {
        var status = stat()
        return lstat(Self.absolute(path), &status) == 0
    }

    /// SQLite's own files beside a database, by suffix: a store made at one of them would be
    /// written over by SQLite, and would write over the database's log (`sync a.sqlite-wal`).
    private static let companions = [
        ("-wal", "write-ahead log"), ("-shm", "shared-memory index"), ("-journal", "rollback journal")
    ]

    /// Why `path` cannot be a store: it names the companion file of a database beside it
    /// (the file without the suffix exists), whether or not SQLite holds that file now.
    private static func companionRefusal(_ path: String) -> String? {
        for (suffix, name) in companions where path.hasSuffix(suffix) {
            let database = String(path.dropLast(suffix.count))
            var status = stat()
            if stat(database, &status) == 0, status.st_mode & S_IFMT == S_IFREG {
                return "it is the \(name) of the database \(database), which SQLite writes"
            }
        }
        return nil
    }

    /// Why a file SQLite cannot read is refused (unless it is a sealed store).
    private static let notSQLite = "not an SQLite database"

    /// Opens the sealed store at `path`: takes its file, asks the passphrase and loads the
    /// image into memory, where it stays (never in a file as it is), saved sealed after each
    /// commit, then prepares it as any store. SQLite keeps its temporary tables and sorts in
    /// memory too: a temporary file would hold memo text as it is.
    private static func openSealed(_ path: String) throws(StoreError) -> StoreOpening {
        let (file, image, count) = try SealedStoreFile.open(path)
        let database: Database
        do {
            database = try Database(path: ":memory:")
        } catch {
            sqlite3_free(image)
            throw .cannotOpen(path: path, reason: Self.reason(error))
        }
        try StoreError.wrapping {
            try database.load(image: image, count: count) { [unowned database] in
                try database.withImage { image in try file.save(image) as Void }
            }
            try database.execute("PRAGMA temp_store = MEMORY")
        }
        var opening = StoreOpening(location: .file(path: path), database: database)
        opening.sealedFile = file
        try opening.prepareSchema(path: path)
        return opening
    }

    /// Checks the file is ours, migrates it, then turns on WAL and foreign keys.
    ///
    /// The checks read the file's header; the first statement after them reads its schema
    /// (every table and index), the last look into the file: a schema SQLite cannot read
    /// refuses the file as the checks do, before anything is written to it. For a store at
    /// the current version that statement is the one turning on WAL, which needs the schema.
    private func prepareSchema(path: String) throws(StoreError) {
        database.setBusyTimeout(milliseconds: Self.busyTimeoutMilliseconds)
        let version = try validatedSchemaVersion(path: path)
        let turnsOnWAL = if case .file = location { !database.isReadOnly && sealedFile == nil } else { false }
        if version < Schema.currentVersion || !turnsOnWAL {
            _ = try readingTheFile(path: path) { try database.integer("SELECT count(*) FROM sqlite_schema") }
        }
        if version < Schema.currentVersion {
            if database.isReadOnly {
                throw .cannotOpen(
                    path: path,
                    reason: "the store is read-only and needs an upgrade to schema version \(Schema.currentVersion)")
            }
            try migrate(path: path)
        }
        if turnsOnWAL {
            let walMode = try readingTheFile(path: path) { try database.prepare("PRAGMA journal_mode = WAL") }
            try StoreError.wrapping {
                try walMode.run()
                // A read in WAL mode: from now on the connection holds SQLite's shared lock on
                // the file while it is open, so no other process takes the file for unused
                // (`CreatedStoreFile.removeIfUnused`), even before this one's first command.
                _ = try database.integer("SELECT count(*) FROM sqlite_schema")
            }
        }
        try StoreError.wrapping { try database.execute("PRAGMA foreign_keys = ON") }
    }

    /// The schema version of a file that is a memo store (or empty), or a refusal.
    ///
    /// A store of memo's own marks (its application id and a version it knows) is taken on
    /// two reads of the file's header; only another file is looked into further: whether it
    /// is empty, or holds version 1's layout, which had no mark.
    ///
    /// Those reads are separate (a read transaction each, which keeps the common case to two
    /// header reads): another process that sets up the empty file between them leaves one
    /// read of the empty file and one of the store. A file they refuse is judged again
    /// inside one read transaction, where every read sees the file as it was at one moment.
    private func validatedSchemaVersion(path: String) throws(StoreError) -> Int {
        do {
            return try schemaVersionFromItsMarks(path: path)
        } catch .notAMemoStore {
            try readingTheFile(path: path) { try database.execute("BEGIN") }
            defer { try? database.execute("COMMIT") }
            return try schemaVersionFromItsMarks(path: path)
        }
    }

    /// `validatedSchemaVersion`'s verdict from the reads as they come.
    private func schemaVersionFromItsMarks(path: String) throws(StoreError) -> Int {
        let version = try readingTheFile(path: path) { try database.integer("PRAGMA user_version") }
        let applicationID = try readingTheFile(path: path) { try database.integer("PRAGMA application_id") }
        switch (applicationID, version) {
        case (Schema.applicationID, let version) where version > Schema.currentVersion:
            throw .newerSchema(path: path, found: Int(version), supported: Schema.currentVersion)
        case (Schema.applicationID, let version) where version >= 2:
            return Int(version)
        case (0, 0) where try holdsNothing(path: path):
            return 0
        case (0, 1) where try hasVersion1Layout(path: path):
            return 1
        case (0, let version) where version > Schema.currentVersion:
            // memo's own layout with a version from the future is a newer memo's store.
            guard try hasVersion1Layout(path: path) else {
                throw .notAMemoStore(path: path, reason: "an SQLite database of another program")
            }
            throw .newerSchema(path: path, found: Int(version), supported: Schema.currentVersion)
        default:
            throw .notAMemoStore(path: path, reason: "an SQLite database of another program")
        }
    }

    /// Whether the file holds no schema object: a new file, or one emptied.
    private func holdsNothing(path: String) throws(StoreError) -> Bool {
        try readingTheFile(path: path) { try database.integer("SELECT count(*) FROM sqlite_schema") } == 0
    }

    /// Runs `read`, a read of the file, with SQLite's failures as reasons to refuse it.
    private func readingTheFile<T>(path: String, _ read: () throws -> T) throws(StoreError) -> T {
        do {
            return try read()
        } catch let error as SQLiteError where error.code == .notADatabase {
            throw .notAMemoStore(path: path, reason: Self.notSQLite)
        } catch let error as SQLiteError where database.isReadOnly && error.code == .readOnly {
            throw .cannotOpen(
                path: path,
                reason: "it is read-only and its folder is not writable, "
                    + "so SQLite cannot open its write-ahead log")
        } catch {
            throw .cannotOpen(path: path, reason: Self.reason(error))
        }
    }

    /// Whether the file holds the version-1 `memo` table with its three columns.
    private func hasVersion1Layout(path: String) throws(StoreError) -> Bool {
        try readingTheFile(path: path) {
            let statement = try database.prepare("SELECT name FROM pragma_table_info('memo') ORDER BY cid")
            var columns: [String] = []
            while try statement.step() { columns.append(statement.string(at: 0)) }
            return columns == ["id", "content", "insert_date"]
        }
    }

    /// Creates the current layout in an empty file, or runs every migration newer than the
    /// file, all in one transaction: a failure leaves the file as it was. The version is read
    /// again inside the transaction, so two processes opening a new store at once set it up
    /// once. Before committing, `PRAGMA foreign_key_check` must find every reference intact
    /// (foreign keys are off while migrating, so a migration could break them unseen).
    private func migrate(path: String) throws(StoreError) {
        try StoreError.wrapping {
            try Migration.inOneTransaction(on: database) {
                let version = try database.integer("PRAGMA user_version")
                if version == 0, try database.integer("SELECT count(*) FROM sqlite_schema") == 0 {
                    try database.execute(Schema.fresh)
                    try SyncIdentity(database: database).noteFile(StoreFile(location)?.identity ?? "")
                } else {
                    for migration in Schema.migrations where migration.version > version {
                        try database.execute(migration.sql)
                        try migration.backfill?(database)
                        try database.execute("PRAGMA user_version = \(migration.version)")
                    }
                }
                let violation = try database.prepare("PRAGMA foreign_key_check").firstRow {
                    ($0.string(at: 0), $0.string(at: 2))
                }
                if let (table, parent) = violation {
                    throw StoreError.brokenReferences(path: path, table: table, parent: parent)
                }
            }
        }
    }

    /// Why the file could not be opened or read, in memo's words rather than SQLite's.
    private static func reason(_ error: any Error) -> String {
        (error as? SQLiteError)?.explanation ?? String(describing: error)
    }

    /// Whether the store can only be read as the file stands: its folder is not writable,
    /// so SQLite could create neither its write-ahead log nor its shared-memory index, and no
    /// log exists, so the file alone holds every saved change and nobody is writing to it.
    ///
    /// Such a store is opened `immutable`: reads work and every write fails as read-only.
    private static func isReadableOnlyAsItIs(_ path: String) -> Bool {
        let folder = path[..<(path.lastIndex(of: "/") ?? path.startIndex)]
        guard access(folder.isEmpty ? "/" : String(folder), W_OK) != 0 else { return false }
        var log = stat()
        return stat(path + "-wal", &log) != 0 || log.st_size == 0
    }

    /// An SQLite URI that opens `path` read-only without locks or a write-ahead log.
    static func immutableURI(_ path: String) -> String {
        let unreserved = Set("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-._~/".utf8)
        let escaped = path.utf8.map {
            unreserved.contains($0) ? String(UnicodeScalar($0)) : "%" + hexDigit($0 >> 4) + hexDigit($0 & 0xF)
        }
        return "file:" + escaped.joined() + "?immutable=1"
    }

    /// One upper-case hexadecimal digit, for percent-escapes.
    private static func hexDigit(_ value: UInt8) -> String {
        String(value, radix: 16, uppercase: true)
    }

    private static func absolute(_ path: String) -> String {
        path.hasPrefix("/") ? path : FileManager.default.currentDirectoryPath + "/" + path
    }
}
