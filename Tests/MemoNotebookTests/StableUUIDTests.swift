import MemoNotebookTestSupport
import MemoTestSupport
import Testing

@testable import MemoNotebook
@testable import MemoStore

@Suite("Stable uuids")
struct StableUUIDTests {
    @Test func derivedUUIDsAreMarkedVersion8WithTheRFCVariant() {
        for name in ["", "coredata:F1E2D3C4:memoentity:1", "conflict:x/1/y"] {
            let uuid = Array(StableUUID.make(from: name))
            #expect(uuid.count == 36)
            #expect(uuid[14] == "8")
            #expect("89ab".contains(uuid[19]))
            #expect(StableUUID.make(from: name) == StableUUID.make(from: name))
        }
    }

    /// The uuids of the memos a script makes in memory, run as `memo run` runs it.
    private func uuids(ofScript lines: [String]) throws -> [String] {
        let notebook = try ScriptedNotebook().notebook
        let interpreter = LineInterpreter(notebook: notebook, renderer: JSONRenderer(), output: StringOutput()) {
            error, _ in
            Issue.record("\(error)")
        }
        for (index, line) in lines.enumerated() { _ = interpreter.feed(line, lineNumber: index + 1) }
        return try notebook.store.memos(MemoQuery(order: .oldestFirst)).collect().map(\.uuid)
    }

    /// Scripted runs in memory: each script gives its own uuids again on every run, and two
    /// scripts never give the same one, so exports of unrelated runs never merge memos.
    @Test func eachScriptRepeatsItsOwnUUIDsAndNoOtherScriptGivesThem() throws {
        let scratch = TemporaryFolder()
        let alice = try uuids(ofScript: ["add Alice: dentist", "add second"])
        #expect(try uuids(ofScript: ["add Alice: dentist", "add second"]) == alice)
        let bob = try uuids(ofScript: ["add Bob: milk", "add second"])
        #expect(Set(alice).isDisjoint(with: bob))
        #expect(
            Set(try uuids(ofScript: ["# another comment", "add Alice: dentist", "add second"])).isDisjoint(with: alice))
        // The same line importing two different files of records without uuids.
        let one = try scratch.write("{\"content\":\"one\"}\n", to: "one.jsonl")
        let first = try uuids(ofScript: ["import \(one)"])
        try scratch.write("{\"content\":\"two\"}\n", to: "one.jsonl")
        #expect(Set(try uuids(ofScript: ["import \(one)"])).isDisjoint(with: first))
        for uuid in alice + bob + first {
            let characters = Array(uuid)
            #expect(
                UUIDText(uuid)?.canonical == uuid && characters[14] == "4" && characters[19] == "8"
                    && uuid.hasPrefix("0000") == false)
        }
        #expect(alice.map { $0.suffix(12) } == ["000000000001", "000000000002"], "the sequence shows at the end")
    }

    /// Import files and sync peers name memos by uuid in either case; the store keeps lower
    /// case, and anything but 8-4-4-4-12 hexadecimal is refused.
    /// The uuids of new memos and stores: version 4 with the RFC variant, and never the same.
    @Test func randomUUIDsAreVersion4WithTheRFCVariantAndDiffer() {
        let uuids = (0..<2_000).map { _ in RandomUUIDs().next() }
        #expect(Set(uuids).count == uuids.count)
        for uuid in uuids {
            let characters = Array(uuid)
            #expect(UUIDText(uuid)?.canonical == uuid && characters[14] == "4" && "89ab".contains(characters[19]))
        }
        // Every other bit varies.
        let ored = uuids.reduce(into: Array(repeating: Character("0"), count: 36)) { seen, uuid in
            for (index, character) in uuid.enumerated() where character != "0" { seen[index] = character }
        }
        #expect(ored.enumerated().allSatisfy { [8, 13, 18, 23].contains($0.offset) || $0.element != "0" })
    }

    @Test func uuidsAreReadInEitherCaseAndWrittenInLowerCase() {
        let mixed = "F1E2D3C4-b5a6-4978-8695-A4B3C2D1E0F9"
        #expect(UUIDText(mixed)?.canonical == "f1e2d3c4-b5a6-4978-8695-a4b3c2d1e0f9")
        #expect(UUIDText(mixed) == UUIDText(mixed.lowercased()))
        #expect(UUIDText("00000000-0000-4000-8000-000000000001")?.canonical == "00000000-0000-4000-8000-000000000001")
        #expect(UUIDText("ffffffff-ffff-ffff-ffff-ffffffffffff")?.canonical == "ffffffff-ffff-ffff-ffff-ffffffffffff")
        #expect(UUIDText("f1e2d3c4-b5a6-4978-8695-a4b3c2d1e0f8") != UUIDText(mixed))
        for refused in [
            "", "f1e2d3c4b5a649788695a4b3c2d1e0f9", "f1e2d3c4-b5a6-4978-8695-a4b3c2d1e0f",
            "f1e2d3c4-b5a6-4978-8695-a4b3c2d1e0f9a",
            "f1e2d3c-4b5a6-4978-8695-a4b3c2d1e0f9", "g1e2d3c4-b5a6-4978-8695-a4b3c2d1e0f9",
            " 1e2d3c4-b5a6-4978-8695-a4b3c2d1e0f9",
            "+1e2d3c4-b5a6-4978-8695-a4b3c2d1e0f9", "f1e2d3c4-b5a6-4978-8695-a4b3c2d1e0é"
        ] {
            #expect(UUIDText(refused) == nil, "\(refused)")
        }
    }

    @Test func aCoreDataStoreImportedByAnEarlierMemoIsNotImportedTwice() throws {
        let scratch = TemporaryFolder()
        let path = scratch.file("Notes.sqlite")
        let source = try Database(path: path)
        try source.execute(
            """
            CREATE TABLE Z_PRIMARYKEY (Z_ENT INTEGER PRIMARY KEY, Z_NAME VARCHAR, Z_SUPER INTEGER, Z_MAX INTEGER);
            CREATE TABLE Z_METADATA (Z_VERSION INTEGER PRIMARY KEY, Z_UUID VARCHAR(255), Z_PLIST BLOB);
            INSERT INTO Z_METADATA VALUES (1, 'F1E2D3C4-B5A6-4978-8695-A4B3C2D1E0F9', NULL);
            INSERT INTO Z_PRIMARYKEY VALUES (1, 'MemoEntity', 0, 0);
            CREATE TABLE ZMEMOENTITY (Z_PK INTEGER PRIMARY KEY, Z_ENT INTEGER, Z_OPT INTEGER, ZINSERTDATE TIMESTAMP, ZCONTENT VARCHAR);
            INSERT INTO ZMEMOENTITY VALUES (1, 1, 1, 731000000, 'one');
            INSERT INTO ZMEMOENTITY VALUES (2, 1, 1, 731000100, 'two');
            """)
        let session = try ScriptedNotebook()
        #expect(
            try session.run("import \(path) --format coredata") == "imported 2 records: 2 added, 0 updated, 0 skipped\n"
        )
        // What memo 0.x left: the same uuids with the version-4 nibble.
        let database = session.notebook.store.database
        try database.asAnotherProgram {
            try database.execute("UPDATE memo SET uuid = substr(uuid, 1, 14) || '4' || substr(uuid, 16)")
        }
        #expect(
            try session.run("import \(path) --format coredata")
                == "imported 2 records: 0 added, 0 updated, 2 skipped (2 already in the store)\n"
        )
        #expect(try session.notebook.store.count() == 2)
    }
}
