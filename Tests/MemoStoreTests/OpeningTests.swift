import CSQLite
import Foundation
import MemoTestSupport
import Testing

@testable import MemoStore

@Suite("Opening, migrating and refusing store files")
struct OpeningTests {
    let folder = TemporaryFolder()

    /// The folders of a new store (created for the default store only) are private too.
    @Test func newStoreIsPrivateAndInWALMode() throws {
        let path = folder.file("a/b/memo.sqlite")
        #expect(throws: StoreError.refused(.missingFolder(folder.file("a/b")))) {
            try MemoStore.open(.file(path: path))
        }
        #expect(!FileManager.default.fileExists(atPath: folder.file("a")))
        let store = try MemoStore.open(.file(path: path), missingFolders: .create)
        try store.insert(draft("hello"))
        #expect(FileManager.default.mode(of: folder.file("a")) == 0o700)
        #expect(FileManager.default.mode(of: folder.file("a/b")) == 0o700)
        #expect(FileManager.default.mode(of: path) == 0o600)
        #expect(try store.info().journalMode == "wal")
        #expect(try store.database.integer("PRAGMA foreign_keys") == 1)
        #expect(try MemoStore.open(.file(path: path)).count() == 1)
    }

    @Test func version1StoreIsMigratedWithoutLosingAMemo() throws {
        let path = folder.file("old.sqlite")
        try makeVersion1Store(
            at: path,
            """
            INSERT INTO memo(content, insert_date) VALUES ('first @errand', 946684800.123);
            INSERT INTO memo(content, insert_date) VALUES ('二番目', 1700000000.999);
            INSERT INTO memo(content, insert_date) VALUES ('third', 1700000001.5);
            INSERT INTO memo(content, insert_date) VALUES ('deleted before the upgrade', 1700000002);
            DELETE FROM memo WHERE id = 4;
            PRAGMA user_version = 1;
            """)
        let store = try MemoStore.open(.file(path: path))
        let memos = try store.all(MemoQuery(order: .oldestFirst))
        #expect(memos.map(\.id) == [1, 2, 3])
        #expect(memos.map(\.content) == ["first @errand", "二番目", "third"])
        #expect(
            memos.map(\.insertDate.millisecondsSince1970) == [946_684_800_123, 1_700_000_000_999, 1_700_000_001_500])
        #expect(memos.allSatisfy { $0.updateDate == nil })
        #expect(memos[0].tags == ["errand"])
        let uuidV4 = /[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}/
        #expect(memos.allSatisfy { $0.uuid.wholeMatch(of: uuidV4) != nil })
        #expect(Set(memos.map(\.uuid)).count == 3)
        #expect(try store.database.integer("PRAGMA user_version") == Int64(Schema.currentVersion))
        #expect(try store.fullTextMatches("third") == [3])
        #expect(try store.insert(draft("after the upgrade", number: 9)).id == 5)
    }

    /// Seconds become milliseconds by truncation: a memo written in the last moment of a day
    /// stays on that day, and a date the double cannot hold exactly is not cut short.
    @Test func version1DatesAreTruncatedToTheMillisecond() throws {
        let path = folder.file("edge.sqlite")
        try makeVersion1Store(
            at: path,
            """
            INSERT INTO memo(content, insert_date) VALUES ('last moment of February', 1709251199.9999);
            INSERT INTO memo(content, insert_date) VALUES ('exact', 1709251199.123);
            INSERT INTO memo(content, insert_date) VALUES ('before 1970', -0.0015);
            PRAGMA user_version = 1;
            """)
        let memos = try MemoStore.open(.file(path: path)).all(MemoQuery(order: .oldestFirst))
        #expect(memos.map(\.content) == ["before 1970", "exact", "last moment of February"])
        #expect(memos.map(\.insertDate.millisecondsSince1970) == [-2, 1_709_251_199_123, 1_709_251_199_999])
    }

    /// Version 3 replaces the word index of version 2 with one that finds CJK words inside
    /// sentences, re-indexing every memo in the migration.
    @Test func version2StoreIsReindexedForSearch() throws {
        let path = folder.file("v2.sqlite")
        do {
            let old = try Database(path: path)
            try old.asAnotherProgram {
                try old.execute(
                    Schema.version1.sql + Schema.version2.sql + """
                        INSERT INTO memo(uuid, content, insert_date) VALUES ('00000000-0000-4000-8000-000000000001', '京都旅行の宿', 0);
                        INSERT INTO memo(uuid, content, insert_date) VALUES ('00000000-0000-4000-8000-000000000002', 'plain words', 1);
                        PRAGMA user_version = 2;
                        """)
            }
        }
        let store = try MemoStore.open(.file(path: path))
        #expect(try store.database.integer("PRAGMA user_version") == Int64(Schema.currentVersion))
        #expect(try store.database.integer("SELECT count(*) FROM sqlite_schema WHERE name LIKE 'memo_fts%'") == 0)
        #expect(try store.count(MemoFilter(search: SearchQuery(parsing: "旅行"))) == 1)
        #expect(try store.count(MemoFilter(search: SearchQuery(parsing: "words"))) == 1)
    }

    @Test func emptyVersion1StoreMigrates() throws {
        let path = folder.file("empty-v1.sqlite")
        try makeVersion1Store(
            at: path,
            """
            PRAGMA user_version = 1;
            """)
        let store = try MemoStore.open(.file(path: path))
        #expect(try store.insert(draft("first")).id == 1)
    }

    /// A store opened at a database's `-wal` (`sync a.sqlite-wal`) would be that database's
    /// log, and SQLite would write over it: refused, whether the log is there or not, and
    /// the database keeps every memo. Without the database beside it, such a name is a store.
    @Test(arguments: ["-wal", "-shm", "-journal"])
    func theCompanionFileOfADatabaseIsRefused(suffix: String) throws {
        do {
            let closed = try MemoStore.open(.file(path: folder.file("closed.sqlite")))
            for n in 1...3 { try closed.insert(draft("memo \(n)", number: n)) }
        }
        let path = folder.file("a.sqlite")
        let store = try MemoStore.open(.file(path: path))
        for n in 1...20 { try store.insert(draft("memo \(n)", number: n)) }
        let companion = path + suffix
        let before = FileManager.default.contents(atPath: companion)
        #expect(
            throws: StoreError.notAMemoStore(
                path: companion,
                reason: "it is the \(Self.companionNames[suffix]!) of the database \(path), which SQLite writes")
        ) {
            try MemoStore.open(.file(path: companion))
        }
        #expect(FileManager.default.contents(atPath: companion) == before)
        #expect(try store.count() == 20)
        #expect(try MemoStore.open(.file(path: path)).count() == 20)
        // With the store closed its log is gone: a store made there was the one that lost
        // every memo once SQLite opened the database and took it for the log.
        #expect(throws: StoreError.self) { try MemoStore.open(.file(path: folder.file("closed.sqlite") + suffix)) }
        #expect(!FileManager.default.fileExists(atPath: folder.file("closed.sqlite") + suffix))
        #expect(try MemoStore.open(.file(path: folder.file("closed.sqlite"))).count() == 3)
        #expect(try MemoStore.open(.file(path: folder.file("lonely.sqlite" + suffix))).count() == 0)
    }

    /// Opening the file at `path` fails with `error` (nil: any store error) and leaves the
    /// file byte for byte as it was.
    private func expectOpeningRefused(
        _ path: String, with error: StoreError?, sourceLocation: SourceLocation = #_sourceLocation
    ) throws {
        let before = try Data(contentsOf: URL(fileURLWithPath: path))
        if let error {
            #expect(throws: error, sourceLocation: sourceLocation) { try MemoStore.open(.file(path: path)) }
        } else {
            #expect(throws: StoreError.self, sourceLocation: sourceLocation) { try MemoStore.open(.file(path: path)) }
        }
        #expect(try Data(contentsOf: URL(fileURLWithPath: path)) == before, sourceLocation: sourceLocation)
    }

    static let companionNames = [
        "-wal": "write-ahead log", "-shm": "shared-memory index", "-journal": "rollback journal"
    ]

    @Test func fileThatIsNotSQLiteIsRefusedUntouched() throws {
        let path = folder.file("notes.txt")
        let bytes = Data(String(repeating: "just some text, not a database\n", count: 200).utf8)
        try bytes.write(to: URL(fileURLWithPath: path))
        try expectOpeningRefused(path, with: StoreError.notAMemoStore(path: path, reason: "not an SQLite database"))
    }

    @Test func anotherProgramsDatabaseIsRefusedUntouched() throws {
        let path = folder.file("other.sqlite")
        try makeDatabase(
            at: path,
            "CREATE TABLE customers(id INTEGER PRIMARY KEY, name TEXT); INSERT INTO customers(name) VALUES ('Ada');")
        try expectOpeningRefused(
            path, with: StoreError.notAMemoStore(path: path, reason: "an SQLite database of another program"))
    }

    @Test func version1LookalikeWithOtherColumnsIsRefused() throws {
        let path = folder.file("lookalike.sqlite")
        try makeDatabase(at: path, "CREATE TABLE memo(id INTEGER PRIMARY KEY, body TEXT); PRAGMA user_version = 1;")
        try expectOpeningRefused(path, with: nil)
    }

    @Test func newerSchemaIsRefusedUntouched() throws {
        let path = folder.file("future.sqlite")
        do {
            let store = try MemoStore.open(.file(path: path))
            try store.insert(draft("from the future"))
            try store.database.execute("PRAGMA user_version = 99; PRAGMA journal_mode = DELETE;")
        }
        try expectOpeningRefused(
            path, with: StoreError.newerSchema(path: path, found: 99, supported: Schema.currentVersion))
        #expect(StoreError.newerSchema(path: path, found: 99, supported: 3).isStoreUnusable)
    }

    /// A store whose schema SQLite cannot read is refused as it is opened, in the words of a
    /// file that cannot be opened, not at its first command as a failure: one of the current
    /// version (its mark says it is memo's) and one of version 1 (judged by its layout).
    @Test(arguments: [true, false])
    func storeWithADamagedSchemaCannotBeOpened(current: Bool) throws {
        let path = folder.file("damaged.sqlite")
        if current {
            let store = try MemoStore.open(.file(path: path))
            try store.insert(draft("kept"))
            try store.database.execute("PRAGMA journal_mode = DELETE; CREATE TABLE extra(x);")
        } else {
            try makeVersion1Store(at: path, "PRAGMA user_version = 1; CREATE TABLE extra(x);")
        }
        var other: OpaquePointer?
        #expect(sqlite3_open(path, &other) == SQLITE_OK)
        let damage = """
            PRAGMA writable_schema = ON;
            UPDATE sqlite_schema SET sql = 'CREATE TABLE extra(' WHERE name = 'extra';
            """
        #expect(sqlite3_exec(other, damage, nil, nil, nil) == SQLITE_OK)
        sqlite3_close(other)
        try expectOpeningRefused(path, with: StoreError.cannotOpen(path: path, reason: "the store file is damaged"))
    }

    /// Foreign keys are off while migrating, so the upgrade checks them before it commits: a
    /// tag of a memo that does not exist (another SQLite client deleted it) refuses the store.
    @Test func brokenReferencesRefuseTheUpgradeUntouched() throws {
        let path = folder.file("dangling.sqlite")
        try makeVersion1Store(
            at: path,
            Schema.version2.sql + """
                INSERT INTO memo(uuid, content, insert_date) VALUES ('00000000-0000-4000-8000-000000000001', 'kept', 0);
                INSERT INTO memo_tag(memo_id, name) VALUES (1, 'fine'), (42, 'dangling');
                PRAGMA user_version = 2;
                """)
        let refusal = StoreError.brokenReferences(path: path, table: "memo_tag", parent: "memo")
        try expectOpeningRefused(path, with: refusal)
        #expect(refusal.isStoreUnusable)
        #expect(
            refusal.description
                == "\(path) cannot be upgraded: rows of its memo_tag table refer to rows missing from memo; "
                + "it was left untouched")
    }

    /// Every migration a store needs runs in one transaction: a table of another program in
    /// the way of version 4 undoes versions 2 and 3 too.
    @Test func aFailedUpgradeLeavesTheFileAsItWas() throws {
        let path = folder.file("in-the-way.sqlite")
        try makeVersion1Store(
            at: path,
            """
            INSERT INTO memo(content, insert_date) VALUES ('kept', 0);
            CREATE TABLE history(note TEXT);
            PRAGMA user_version = 1;
            """)
        try expectOpeningRefused(path, with: nil)
    }

    /// memo's own version-1 table under a version from the future is a newer memo's store,
    /// not another program's database.
    @Test func version1LayoutWithAFutureVersionIsANewerSchema() throws {
        let path = folder.file("future-v1.sqlite")
        try makeVersion1Store(
            at: path,
            """
            PRAGMA user_version = 99;
            """)
        try expectOpeningRefused(
            path, with: StoreError.newerSchema(path: path, found: 99, supported: Schema.currentVersion))
    }

    @Test func folderInPlaceOfTheFileCannotBeOpened() throws {
        let path = folder.file("a-folder")
        try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
        #expect(throws: StoreError.cannotOpen(path: path, reason: "it is a folder, not a file")) {
            try MemoStore.open(.file(path: path))
        }
    }

    @Test func twoConnectionsSeeEachOthersWrites() throws {
        let path = folder.file("shared.sqlite")
        let first = try MemoStore.open(.file(path: path))
        let second = try MemoStore.open(.file(path: path))
        try first.insert(draft("from the first", number: 1))
        try second.insert(draft("from the second", number: 2))
        #expect(try first.count() == 2)
    }
}
