import Foundation
import MemoNotebookTestSupport
import MemoTestSupport
import Testing

@testable import MemoNotebook
@testable import MemoStore

/// `sync PATH` (docs/REFERENCE.md, Sync) between two and three file stores, each driven by command
/// lines.
@Suite("Sync between stores")
struct SyncTests {
    let scratch = TemporaryFolder()

    /// A session on the store file `name` in the scratch folder, with its own random uuids.
    func store(_ name: String) throws -> ScriptedNotebook {
        try ScriptedNotebook(file: scratch.path + "/" + name)
    }

    func path(_ name: String) -> String { scratch.path + "/" + name }

    /// Every live memo: uuid, text, dates and tags, in uuid order.
    func memos(_ session: ScriptedNotebook) throws -> [String] {
        try session.dump().sorted()
    }

    /// An in-memory run's new memos take the uuids every such run takes; synced into a file
    /// they were taken for another run's memos (two scripts' `add alpha` and `add beta` met as
    /// one memo and a conflict). Such a session may sync until it adds a memo, never after.
    @Test func memosWithAnInMemoryRunsUUIDsAreNotSynced() throws {
        let file = try store("file.sqlite")
        try file.run("add from the file")
        let run = try ScriptedNotebook()
        #expect(try run.run("sync \(path("file.sqlite"))").hasSuffix(": 0 memos sent, 1 received\n"))
        try run.run("add alpha")
        #expect(throws: StoreError.refused(.syncOfReproducibleUUIDs)) { try run.run("sync \(path("file.sqlite"))") }
        #expect(throws: StoreError.refused(.syncOfReproducibleUUIDs)) { try run.run("sync \(path("other.sqlite"))") }
        #expect(!FileManager.default.fileExists(atPath: path("other.sqlite")))
        #expect(try texts(file) == ["from the file"])
    }

    /// Whether an export writes a memo's version is decided in Swift (`memo_names_its_state`),
    /// as the SQL before it decided it (JSON functions and a sort a memo, most of an export's
    /// time): the two agree on imported memos with and without tags and dates, edited, tagged,
    /// untagged, deleted and brought back, synced both ways, and imported again.
    @Test func anExportWritesTheVersionsItWroteBefore() throws {
        let a = try store("a.sqlite"), b = try store("b.sqlite")
        let records = [
            #"{"content":"plain"}"#, #"{"content":"tagged","tags":["x"]}"#, #"{"content":"two tags","tags":["y","x"]}"#,
            #"{"content":"inline @z","tags":["z"]}"#, #"{"content":"edited","updateDate":"2001-01-01T00:00:00.000Z"}"#,
            #"{"content":"accents é 京都 👍🏽"}"#, #"{"content":"to edit"}"#, #"{"content":"to tag"}"#,
            #"{"content":"to untag","tags":["w"]}"#, #"{"content":"to delete"}"#
        ]
        let file = path("records.jsonl")
        try (records.joined(separator: "\n") + "\n").write(toFile: file, atomically: true, encoding: .utf8)
        try a.run("import \(file)")
        try a.run("edit 7 edited here")
        try a.run("tag 8 new")
        try a.run("untag 9 w")
        try a.run("delete 10")
        try a.run("undo")
        _ = try a.run("sync \(path("b.sqlite"))")
        try b.run("edit 1 plain, edited on b")
        try b.run("add from b @b")
        _ = try b.run("sync \(path("a.sqlite"))")
        try a.run("export \(path("a.jsonl"))")
        let c = try store("c.sqlite")
        try c.run("import \(path("a.jsonl"))")
        for session in [a, b, c] {
            let named = try session.notebook.store.database.prepare(
                "SELECT \(SyncStamping.isOnlyItsStateSQL), \(Self.isOnlyItsStateBefore) FROM memo")
            var agreed: [Bool] = []
            while try named.step() {
                #expect(named.int64(at: 0) == named.int64(at: 1))
                agreed.append(named.int64(at: 0) == 1)
            }
            #expect(agreed.contains(true) && agreed.contains(false))
        }
        // A name one hex digit off, in any of the four columns, is not the state's name.
        let database = c.notebook.store.database
        for (id, column, lastDigit) in [
            (1, "text_by", 32), (2, "version", 34), (3, "tags_version", 34), (4, "support", 72)
        ] {
            let read = try database.prepare("SELECT \(column) FROM memo WHERE id = ?1")
            try read.bind([.integer(Int64(id))])
            #expect(try read.step())
            var bytes = Array(read.string(at: 0).utf8)
            bytes[lastDigit] = bytes[lastDigit] == UInt8(ascii: "0") ? UInt8(ascii: "1") : UInt8(ascii: "0")
            try database.asAnotherProgram {
                try database.prepare("UPDATE memo SET \(column) = ?2 WHERE id = ?1").run([
                    .integer(Int64(id)), .text(String(decoding: bytes, as: UTF8.self))
                ])
            }
        }
        let named = try database.prepare(
            "SELECT id, \(SyncStamping.isOnlyItsStateSQL), \(Self.isOnlyItsStateBefore) FROM memo WHERE id <= 5")
        var namedIDs: [Int64] = []
        while try named.step() {
            #expect(named.int64(at: 1) == named.int64(at: 2))
            if named.int64(at: 1) == 1 { namedIDs.append(named.int64(at: 0)) }
        }
        #expect(namedIDs == [5])
    }

    /// `SyncStamping.isOnlyItsStateSQL` as SQL alone wrote it.
    static let isOnlyItsStateBefore = """
        (memo.text_seq = 1 AND substr(memo.text_by, 1, 1) = '~' AND memo.version = json_object(memo.text_by, 1)
         AND memo.text_by = memo_state_name(memo.content, memo.insert_date, memo.update_date)
         AND memo.tags_version = json_object(memo_state_name(coalesce((SELECT group_concat(name, char(31)) FROM
             (SELECT name FROM memo_tag WHERE memo_id = memo.id AND inline = 0 ORDER BY name)), '')), 1)
         AND memo.support IS (SELECT json_group_object(name, 1) FROM
             (SELECT memo.text_by AS name UNION SELECT key FROM json_each(memo.tags_version) ORDER BY name))
         AND NOT EXISTS (SELECT 1 FROM memo_tag WHERE memo_id = memo.id AND inline = 0
                         AND (added_seq <> 1 OR json_extract(memo.tags_version, '$."' || added_by || '"') IS NULL)))
        """

    /// The texts of the live memos, oldest first.
    func texts(_ session: ScriptedNotebook) throws -> [String] {
        try session.notebook.store.memos(MemoQuery()).collect().map(\.content).sorted()
    }

    /// The memos and tombstones `sender` would send `receiver` at their next sync: those
    /// changed after the receiver's cursor of the sender.
    func unsent(from sender: ScriptedNotebook, to receiver: ScriptedNotebook) throws -> Int64? {
        let cursor = try receiver.notebook.store.syncCursor(of: sender.notebook.store.syncStoreID())
        return try sender.notebook.store.database.prepare(
            """
            SELECT (SELECT count(*) FROM memo WHERE change_seq > ?1) + (SELECT count(*) FROM memo_tombstone WHERE change_seq > ?1)
            """
        ).scalarInt([.integer(cursor?.seq ?? -1)])
    }

    /// A sync that moved memos leaves the next one nothing to send back: each side's cursor of
    /// the other covers the other's sync change when it ends holding every memo that change
    /// wrote. (Before, the next sync sent back all a sync had moved: 7 s after a sync of
    /// 100,000 memos.) A change made after the sync is sent, and only it.
    @Test func theNextSyncDoesNotSendBackWhatASyncMoved() throws {
        let a = try store("a.sqlite"), b = try store("b.sqlite")
        try a.run("add one")
        try a.run("add two")
        try b.run("add three")
        try b.run("add four")
        try b.run("delete 2")
        #expect(try a.run("sync \(path("b.sqlite"))").hasSuffix(": 2 memos sent, 1 received\n"))
        #expect(try unsent(from: a, to: b) == 0)
        #expect(try unsent(from: b, to: a) == 0)
        try b.run("edit 1 three, edited")
        #expect(try unsent(from: b, to: a) == 1)
        #expect(try a.run("sync \(path("b.sqlite"))").hasSuffix(": 0 memos sent, 1 received\n"))
        #expect(try unsent(from: a, to: b) == 0)
        #expect(try unsent(from: b, to: a) == 0)
        #expect(try memos(a) == memos(b))
    }

    /// A sync inside a batch is refused, before the peer is opened. Its peer would commit
    /// what it received while a rollback here could take it back (the peer then kept memos
    /// this store lost, and gave them back at the next sync with a false conflict), and the
    /// batch's changes are stamped only when it is saved, so the sync sent its new memos but
    /// not its edits and deletes, and no later sync did (the stores never converged).
    @Test func aSyncInsideABatchIsRefusedAndTheSavedBatchSyncs() throws {
        let a = try store("a.sqlite"), b = try store("b.sqlite")
        try a.run("add one")
        try a.run("add two")
        _ = try a.run("sync \(path("b.sqlite"))")
        try a.run("begin")
        try a.run("edit 1 one, edited")
        try a.run("delete 2")
        try a.run("add three")
        #expect(throws: StoreError.refused(.syncInBatch)) { try a.run("sync \(path("b.sqlite"))") }
        #expect(throws: StoreError.refused(.syncInBatch)) { try a.run("sync \(path("new.sqlite"))") }
        #expect(!FileManager.default.fileExists(atPath: path("new.sqlite")))
        #expect(try a.run("save") == "saved 3 changes\n")
        _ = try a.run("sync \(path("b.sqlite"))")
        #expect(try memos(a) == memos(b))
        #expect(try texts(b) == ["one, edited", "three"])
        try a.run("begin")
        try a.run("add discarded")
        #expect(throws: StoreError.refused(.syncInBatch)) { try a.run("sync \(path("b.sqlite"))") }
        try a.run("rollback")
        #expect(try a.run("sync \(path("b.sqlite"))").hasSuffix(": 0 memos sent, 0 received\n"))
        #expect(try texts(b) == ["one, edited", "three"])
    }

    @Test func aChangeOnOneSideTakesThatSidesVersion() throws {
        let a = try store("a.sqlite"), b = try store("b.sqlite")
        try a.run("add first @x")
        try a.run("add second")
        #expect(try a.run("sync \(path("b.sqlite"))") == "synced with \(path("b.sqlite")): 2 memos sent, 0 received\n")
        try b.run("edit 1 first, edited on b")
        try b.run("tag 2 work")
        #expect(try a.run("sync \(path("b.sqlite"))").hasSuffix(": 0 memos sent, 2 received\n"))
        #expect(try memos(a) == memos(b))
        #expect(try a.run("show 1").hasSuffix("\nfirst, edited on b\n"))
        #expect(try a.run("list --tag work").contains("second"))
    }

    @Test func aSecondSyncMovesNothing() throws {
        let a = try store("a.sqlite"), b = try store("b.sqlite")
        try a.run("add one")
        try b.run("add two")
        #expect(try a.run("sync \(path("b.sqlite"))").hasSuffix(": 1 memo sent, 1 received\n"))
        #expect(try a.run("sync \(path("b.sqlite"))").hasSuffix(": 0 memos sent, 0 received\n"))
        #expect(try b.run("sync \(path("a.sqlite"))").hasSuffix(": 0 memos sent, 0 received\n"))
        #expect(try a.run("history -n 1").contains("sync"))
        #expect(try memos(a) == memos(b))
    }

    @Test func editedOnBothSidesTheLaterWinsAndTheOtherIsKeptAsAConflict() throws {
        let a = try store("a.sqlite"), b = try store("b.sqlite")
        try a.run(["clock 2024-03-01T09:00Z", "add the plan @work"])
        try a.run("sync \(path("b.sqlite"))")
        try b.run(["clock 2024-03-02T10:00Z", "edit 1 the plan, as b saw it @work"])
        try a.run(["clock 2024-03-02T11:00Z", "edit 1 the plan, as a saw it later @work"])
        #expect(
            try a.run("sync \(path("b.sqlite"))").hasSuffix(
                ": 1 memo sent, 0 received, 1 conflict kept as @conflict memos\n"))
        #expect(try memos(a) == memos(b))
        let listing = try b.run("list --asc")
        #expect(listing.contains("2024-03-01 09:00:00  the plan, as a saw it later @work\n"))
        #expect(
            listing.contains("2024-03-01 09:00:00  the plan, as b saw it @work  @conflict\n"), "the same insert date")
        #expect(try b.run("count") == "2\n")
    }

    @Test func aDeleteRemovesOnlyWhatItSaw() throws {
        let a = try store("a.sqlite"), b = try store("b.sqlite")
        try a.run(["add keep me", "add delete me", "sync \(path("b.sqlite"))", "delete 1"])
        try b.run(["edit 1 keep me, edited meanwhile", "delete 2"])
        try a.run("sync \(path("b.sqlite"))")
        #expect(try memos(a) == memos(b))
        #expect(try a.run("list").contains("keep me, edited meanwhile"))
        #expect(try b.run("count") == "1\n")
    }

    @Test func aDeletedMemoStaysDeletedWhenAThirdStoreHasAnOldCopy() throws {
        let a = try store("a.sqlite"), b = try store("b.sqlite"), c = try store("c.sqlite")
        try a.run("add soon gone")
        try a.run("sync \(path("b.sqlite"))")
        try a.run("sync \(path("c.sqlite"))")
        try b.run("delete 1")
        try b.run("sync \(path("a.sqlite"))")
        try c.run("sync \(path("a.sqlite"))")
        try c.run("sync \(path("b.sqlite"))")
        try a.run("sync \(path("b.sqlite"))")
        for session in [a, b, c] { #expect(try session.run("count") == "0\n") }
    }

    @Test func aMissingPathBecomesACopyAndOtherFilesAreRefusedUntouched() throws {
        let a = try store("a.sqlite")
        try a.run("add one @x")
        #expect(throws: StoreError.refused(.missingFolder(path("new")))) {
            try a.run("sync \(path("new/copy.sqlite"))")
        }
        #expect(!FileManager.default.fileExists(atPath: path("new")), "a sync creates no folder (a stick not mounted)")
        try FileManager.default.createDirectory(atPath: path("new"), withIntermediateDirectories: false)
        try a.run("sync \(path("new/copy.sqlite"))")
        let copy = try store("new/copy.sqlite")
        #expect(try memos(copy) == memos(a))
        try "not a store".write(toFile: path("text.sqlite"), atomically: true, encoding: .utf8)
        #expect(throws: StoreError.self) { try a.run("sync \(path("text.sqlite"))") }
        #expect(try String(contentsOfFile: path("text.sqlite"), encoding: .utf8) == "not a store")
        #expect(throws: StoreError.syncWithItself(path: path("a.sqlite"))) { try a.run("sync \(path("a.sqlite"))") }
    }

    /// A session's plain `undo` does not take back its own sync either; `undo --sync` does,
    /// keeping what the sync brought (removing it here would remove it there at the next sync,
    /// and the other store may not hold it any more).
    @Test func aSyncIsUndoneOnlyOnPurposeAndKeepsWhatItBrought() throws {
        let a = try store("a.sqlite"), b = try store("b.sqlite")
        try a.run("add mine")
        try a.run("sync \(path("b.sqlite"))")
        try b.run("edit 1 mine, edited on b")
        try b.run("add theirs")
        try a.run("sync \(path("b.sqlite"))")
        #expect(throws: StoreError.self) { try a.run("undo") }
        #expect(try texts(a) == ["mine, edited on b", "theirs"])
        let undone = try a.run("undo --sync")
        #expect(undone.hasPrefix("undid change "), "\(undone)")
        #expect(
            undone.contains(
                " (sync with \(path("b.sqlite"))): 1 memo it changed put back (the texts it brought kept), 1 memo it added kept\n"
            ))
        #expect(try texts(a) == ["mine, edited on b", "theirs"])
        #expect(try a.run("redo").contains(" (sync with \(path("b.sqlite")))"))
        #expect(try texts(a) == ["mine, edited on b", "theirs"])
    }

    /// A store whose clock is behind still has the later change when it changed the memo
    /// after seeing the other's version: sync orders by what each side saw, then by
    /// hybrid-logical time, never by a wall clock alone.
    @Test func aChangeMadeAfterSeeingAnotherWinsWhateverTheClocks() throws {
        let a = try store("a.sqlite"), b = try store("b.sqlite")
        try a.run("clock 2030-01-01T00:00Z")
        try a.run("add from the future")
        try a.run("sync \(path("b.sqlite"))")
        try b.run("clock 2020-01-01T00:00Z")
        try b.run("edit 1 edited later, on a slow clock")
        #expect(try b.run("sync \(path("a.sqlite"))").hasSuffix(": 1 memo sent, 0 received\n"))
        #expect(try a.run("show 1").hasSuffix("\nedited later, on a slow clock\n"))
        #expect(try a.run("count") == "1\n", "no conflict")
    }

    /// Three stores, hundreds of random adds, edits, moves, deletes and tags, synced in random pairs:
    /// after a final round all hold the same memos, and every memo's last text on each store
    /// survives as a memo or a conflict copy, unless a change that had seen it (an edit or a
    /// delete) replaced it.
    @Test(arguments: PropertySeeds.seeds(standard: 5))
    func randomChangesAndSyncsConverge(seed: UInt64) throws {
        var random = SeededRandom(seed: seed)
        let names = ["a.sqlite", "b.sqlite", "c.sqlite"]
        let stores = try names.map(store)
        var written = 0
        for _ in 0..<300 {
            let index = Int(random.next() % 3), session = stores[index]
            let ids = try session.notebook.store.memos(MemoQuery()).allIDs()
            let roll = ids.isEmpty ? 0 : random.next() % 11
            switch roll {
            case 0...3:
                written += 1
                try session.run("add memo \(written) from \(names[index]) @t\(random.next() % 4)")
            case 4...5:
                written += 1
                try session.run(
                    "edit \(ids[Int(random.next() % UInt64(ids.count))]) rewritten \(written) on \(names[index])")
            case 6:
                try session.run("delete \(ids[Int(random.next() % UInt64(ids.count))])")
            case 7:
                try session.run("tag \(ids[Int(random.next() % UInt64(ids.count))]) extra\(random.next() % 3)")
            case 8:
                try session.run(
                    "edit \(ids[Int(random.next() % UInt64(ids.count))]) --date 2001-01-\(10 + random.next() % 20)")
            default:
                let other = (index + 1 + Int(random.next() % 2)) % 3
                try session.run("sync \(path(names[other]))")
            }
        }
        let before = try stores.map { try $0.notebook.store.liveVersions() }
        for (one, two) in [(0, 1), (1, 2), (0, 2), (0, 1)] { try stores[one].run("sync \(path(names[two]))") }
        let final = try memos(stores[0])
        #expect(try memos(stores[1]) == final)
        #expect(try memos(stores[2]) == final)
        let store = stores[0].notebook.store
        let texts = Set(try store.memos(MemoQuery()).allContents())
        for versions in before {
            for (uuid, content, version) in versions where !texts.contains(content) {
                let replacedAfterSeeing = try store.finalVersion(uuid: uuid).map { $0.includes(version) } ?? false
                #expect(replacedAfterSeeing, "lost '\(content)' (seed \(seed))")
            }
        }
    }
}

extension MemoCursor {
    func allIDs() throws -> [Int64] {
        var ids: [Int64] = []
        while let memo = try next() { ids.append(memo.id) }
        return ids
    }

    func allContents() throws -> [String] {
        var contents: [String] = []
        while let memo = try next() { contents.append(memo.content) }
        return contents
    }
}

extension MemoStore {
    /// Every live memo's uuid, text and version.
    func liveVersions() throws -> [(String, String, VersionVector)] {
        let rows = try database.prepare("SELECT uuid, content, version FROM memo")
        var versions: [(String, String, VersionVector)] = []
        while try rows.step() {
            versions.append((rows.string(at: 0), rows.string(at: 1), VersionVector(json: rows.string(at: 2))))
        }
        return versions
    }

    /// The version of the memo with `uuid`, live or deleted.
    func finalVersion(uuid: String) throws -> VersionVector? {
        try database.cached(
            "SELECT version FROM memo WHERE uuid = ?1 UNION ALL SELECT version FROM memo_tombstone WHERE uuid = ?1"
        )
        .firstRow([.text(uuid)]) { VersionVector(json: $0.string(at: 0)) }
    }
}
