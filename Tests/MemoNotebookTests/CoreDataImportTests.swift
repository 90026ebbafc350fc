import Foundation
import MemoNotebookTestSupport
import MemoStore
import MemoTestSupport
import Testing

@testable import MemoNotebook

/// Core Data and SwiftData stores built here in their real SQLite layout, imported with
/// `import --format coredata`, never changed.
@Suite("Core Data import")
struct CoreDataImportTests {
    let scratch = TemporaryFolder()

    /// Core Data's reference date, 2001-01-01T00:00:00Z, in seconds since 1970.
    private static let referenceDate: Int64 = 978_307_200

    /// The tables every Core Data store has, declaring `entities` as (id, name, parent id).
    private static func metadataSQL(_ entities: [(Int, String, Int)]) -> String {
        """
        CREATE TABLE Z_PRIMARYKEY (Z_ENT INTEGER PRIMARY KEY, Z_NAME VARCHAR, Z_SUPER INTEGER, Z_MAX INTEGER);
        CREATE TABLE Z_METADATA (Z_VERSION INTEGER PRIMARY KEY, Z_UUID VARCHAR(255), Z_PLIST BLOB);
        CREATE TABLE Z_MODELCACHE (Z_CONTENT BLOB);
        INSERT INTO Z_METADATA VALUES (1, 'F1E2D3C4-B5A6-4978-8695-A4B3C2D1E0F9', NULL);
        """
            + entities.map { "INSERT INTO Z_PRIMARYKEY VALUES (\($0.0), '\($0.1)', \($0.2), 0);" }.joined(
                separator: "\n")
    }

    /// The memo app's store: `MemoEntity(content, insertDate)`, with a NULL and an empty text.
    private func memoAppStore() throws -> String {
        let path = scratch.file("Memos.sqlite")
        let store = try Database(path: path)
        try store.execute(
            Self.metadataSQL([(1, "MemoEntity", 0)]) + """
                CREATE TABLE ZMEMOENTITY (Z_PK INTEGER PRIMARY KEY, Z_ENT INTEGER, Z_OPT INTEGER, ZINSERTDATE TIMESTAMP, ZCONTENT VARCHAR);
                INSERT INTO ZMEMOENTITY VALUES (1, 1, 1, 731000000.5, 'Buy milk @shopping');
                INSERT INTO ZMEMOENTITY VALUES (2, 1, 1, 731000100.25, '京都旅行の宿を予約する');
                INSERT INTO ZMEMOENTITY VALUES (3, 1, 1, 731000200, NULL);
                INSERT INTO ZMEMOENTITY VALUES (4, 1, 1, 731000300, '');
                INSERT INTO ZMEMOENTITY VALUES (5, 1, 2, -31622400.0019, 'Before the reference date');
                """)
        return path
    }

    private func bytes(_ path: String) -> Data? {
        FileManager.default.contents(atPath: path)
    }

    @Test func importsTheMemoAppsStoreWithDefaultsAndLeavesItUnchanged() throws {
        let path = try memoAppStore()
        let before = bytes(path)
        let session = try ScriptedNotebook()
        #expect(
            try session.run("import \(path) --format coredata")
                == "imported 5 records: 3 added, 0 updated, 0 skipped, 2 without text\n")
        let memos = try session.dump()
        #expect(memos.count == 3)
        let texts = try (1...3).map { try #require(try session.notebook.store.memo(id: $0)) }
        #expect(texts.map(\.content) == ["Buy milk @shopping", "京都旅行の宿を予約する", "Before the reference date"])
        #expect(
            texts.map(\.insertDate.millisecondsSince1970) == [
                (Self.referenceDate + 731_000_000) * 1000 + 500,
                (Self.referenceDate + 731_000_100) * 1000 + 250,
                (Self.referenceDate - 31_622_401) * 1000 + 998
            ])
        #expect(texts[0].tags == ["shopping"])
        #expect(try session.run("search 旅行").contains("京都旅行"))
        #expect(bytes(path) == before)
        for suffix in ["-wal", "-shm", "-journal"] { #expect(!FileManager.default.fileExists(atPath: path + suffix)) }
        #expect(
            try session.run("import \(path) --format coredata")
                == "imported 5 records: 0 added, 0 updated, 3 skipped (3 already in the store), 2 without text\n")
    }

    /// A text of white space alone is no text, as in every other import: the row is counted
    /// without text, and the rest of the store still comes in.
    @Test func aTextOfOnlyWhiteSpaceIsCountedWithoutText() throws {
        let path = scratch.file("Blank.sqlite")
        try Database(path: path).execute(
            Self.metadataSQL([(1, "MemoEntity", 0)]) + """
                CREATE TABLE ZMEMOENTITY (Z_PK INTEGER PRIMARY KEY, Z_ENT INTEGER, Z_OPT INTEGER, ZINSERTDATE TIMESTAMP, ZCONTENT VARCHAR);
                INSERT INTO ZMEMOENTITY VALUES (1, 1, 1, 731000000, 'Kept');
                INSERT INTO ZMEMOENTITY VALUES (2, 1, 1, 731000100, '  \n\t ');
                INSERT INTO ZMEMOENTITY VALUES (3, 1, 1, 731000200, 'Also kept');
                """)
        let session = try ScriptedNotebook()
        #expect(
            try session.run("import \(path) --format coredata")
                == "imported 3 records: 2 added, 0 updated, 0 skipped, 1 without text\n")
        #expect(try session.run("count") == "2\n")
    }

    /// The Core Data tutorial's bookshelf: several text attributes joined by a newline.
    @Test func booksWithSeveralTextAttributes() throws {
        let path = scratch.file("Bookshelf.sqlite")
        try Database(path: path).execute(
            Self.metadataSQL([(1, "Book", 0)]) + """
                CREATE TABLE ZBOOK (Z_PK INTEGER PRIMARY KEY, Z_ENT INTEGER, Z_OPT INTEGER, ZTIMESTAMP TIMESTAMP, ZTITLE VARCHAR, ZAUTHOR VARCHAR);
                INSERT INTO ZBOOK VALUES (1, 1, 1, 700000000, 'The Swift Programming Language', 'Apple');
                INSERT INTO ZBOOK VALUES (2, 1, 1, 700000060, 'Untitled', NULL);
                INSERT INTO ZBOOK VALUES (3, 1, 1, NULL, NULL, NULL);
                """)
        let session = try ScriptedNotebook()
        try session.run("clock 2030-01-01T00:00Z")
        #expect(
            try session.run("import \(path) --format coredata --entity book --text title,Author --date timestamp")
                == "imported 3 records: 2 added, 0 updated, 0 skipped, 1 without text\n")
        #expect(try session.notebook.store.memo(id: 1)?.content == "The Swift Programming Language\nApple")
        #expect(try session.notebook.store.memo(id: 2)?.content == "Untitled")
        #expect(
            try session.notebook.store.memo(id: 2)?.insertDate
                == Timestamp(secondsSince1970: Self.referenceDate + 700_000_060))
    }

    /// A SwiftData-style model: a UUID blob, a relation, and a sub-entity sharing its
    /// parent's table (told apart by `Z_ENT`).
    @Test func swiftDataStyleEntityWithARelationAndSubEntities() throws {
        let path = scratch.file("default.store")
        try Database(path: path).execute(
            Self.metadataSQL([(1, "Folder", 0), (2, "Note", 0), (3, "Checklist", 2)]) + """
                CREATE TABLE ZFOLDER (Z_PK INTEGER PRIMARY KEY, Z_ENT INTEGER, Z_OPT INTEGER, ZNAME VARCHAR);
                CREATE TABLE ZNOTE (Z_PK INTEGER PRIMARY KEY, Z_ENT INTEGER, Z_OPT INTEGER, ZFOLDER INTEGER, ZCREATEDAT TIMESTAMP,
                                    ZID BLOB, ZBODY VARCHAR, ZITEMS VARCHAR);
                INSERT INTO ZFOLDER VALUES (1, 1, 1, 'Inbox');
                INSERT INTO ZNOTE VALUES (1, 2, 1, 1, 750000000, X'0123456789ABCDEF0123456789ABCDEF', 'A note in the inbox', NULL);
                INSERT INTO ZNOTE VALUES (2, 3, 1, 1, 750000001, X'FEDCBA9876543210FEDCBA9876543210', 'A checklist', 'eggs, flour');
                INSERT INTO ZNOTE VALUES (3, 2, 1, NULL, 750000002, X'00112233445566778899AABBCCDDEEFF', 'Loose note', NULL);
                """)
        let session = try ScriptedNotebook()
        #expect(
            try session.run("import \(path) --entity Note --text body --date createdAt")
                == "imported 2 records: 2 added, 0 updated, 0 skipped\n")
        #expect(
            try session.run("import \(path) --entity Checklist --text body,items --date createdAt")
                == "imported 1 record: 1 added, 0 updated, 0 skipped\n")
        #expect(try session.notebook.store.memo(id: 3)?.content == "A checklist\neggs, flour")
        #expect(try session.notebook.store.count() == 3)
    }

    /// A store copied from a running app holds its newest rows only in its `-wal` file:
    /// they come across, and neither file changes nor does a `-shm` appear.
    @Test func rowsThatLiveOnlyInTheWriteAheadLogAreRead() throws {
        let live = try memoAppStore()
        let app = try Database(path: live)
        try app.execute("PRAGMA journal_mode = WAL; PRAGMA wal_autocheckpoint = 0;")
        try app.execute("INSERT INTO ZMEMOENTITY VALUES (6, 1, 1, 731000400, 'Only in the WAL');")
        let copy = scratch.file("Copied.sqlite")
        try FileManager.default.copyItem(atPath: live, toPath: copy)
        try FileManager.default.copyItem(atPath: live + "-wal", toPath: copy + "-wal")
        let walBefore = bytes(copy + "-wal"), storeBefore = bytes(copy)
        #expect((walBefore?.count ?? 0) > 0)

        let session = try ScriptedNotebook()
        #expect(
            try session.run("import \(copy) --format coredata")
                == "imported 6 records: 4 added, 0 updated, 0 skipped, 2 without text\n")
        #expect(try session.run("search WAL").contains("Only in the WAL"))
        #expect(bytes(copy) == storeBefore)
        #expect(bytes(copy + "-wal") == walBefore)
        #expect(!FileManager.default.fileExists(atPath: copy + "-shm"))
    }

    @Test func aMappingThatDoesNotFitSaysWhatExists() throws {
        let path = try memoAppStore()
        let session = try ScriptedNotebook()
        #expect(throws: StoreError.invalidContent("no entity 'Note' in \(path); its entities are: MemoEntity")) {
            try session.run("import \(path) --format coredata --entity Note")
        }
        #expect(
            throws: StoreError.invalidContent(
                "entity MemoEntity has no attribute 'body'; its attributes are: insertdate, content")
        ) {
            try session.run("import \(path) --format coredata --text body")
        }
        let notCoreData = scratch.file("plain.sqlite")
        try Database(path: notCoreData).execute("CREATE TABLE t(x);")
        // The file read is not the store in use: a plain failure (exit status 1), not an unusable store.
        #expect(
            throws: CommandError.invalid(
                "cannot import \(notCoreData): not a Core Data store: it has no Z_PRIMARYKEY table")
        ) {
            try session.run("import \(notCoreData) --format coredata")
        }
        let text = try scratch.write("not a database at all, just some words\n", to: "notes.sqlite")
        #expect(throws: CommandError.invalid("cannot import \(text): not an SQLite database")) {
            try session.run("import \(text)")
        }
        #expect(try session.notebook.store.count() == 0)
    }
}
