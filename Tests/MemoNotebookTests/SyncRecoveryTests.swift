import Foundation
import MemoNotebookTestSupport
import Testing

@testable import MemoNotebook
@testable import MemoStore
@testable import MemoSync

/// Sync when a side fails, is copied or restored (docs/REFERENCE.md, Sync): a store records what it
/// received only with what it received, so every failure is finished by the next sync.
extension SyncTests {
    /// The peer commits, then this store's save fails (a full disk, a kill): the peer must
    /// not count on it, and the next sync brings this store everything.
    @Test func aSaveThatFailsAfterThePeerSavedIsFinishedByTheNextSync() throws {
        let a = try store("a.sqlite"), b = try store("b.sqlite")
        try a.run("add a1")
        try a.run("sync \(path("b.sqlite"))")
        try a.run("add a2")
        for n in 1...3 { try b.run("add b\(n)") }
        let failing = FailingCommit(LocalSyncEndpoint(store: a.notebook.store, displayPath: path("a.sqlite")))
        #expect(throws: StoreError.self) {
            try Synchronizer.sync(
                failing, with: LocalSyncEndpoint(store: b.notebook.store, displayPath: path("b.sqlite")),
                at: Timestamp(millisecondsSince1970: 1_000))
        }
        #expect(try a.notebook.store.count() == 2, "a's save failed")
        #expect(try b.notebook.store.count() == 5, "b saved first")
        #expect(try a.run("sync \(path("b.sqlite"))").hasSuffix(": 0 memos sent, 3 received\n"))
        #expect(try memos(a) == memos(b))
        #expect(try a.run("sync \(path("b.sqlite"))").hasSuffix(": 0 memos sent, 0 received\n"))
    }

    /// A copy of a store file (a new machine) becomes a store of its own: the original and
    /// the copy both get what a peer wrote, and the peer gets what each wrote.
    @Test func aCopiedStoreFileBecomesAStoreOfItsOwn() throws {
        let a = try store("a.sqlite"), c = try store("c.sqlite")
        try a.run("add first")
        try a.run("sync \(path("c.sqlite"))")
        try FileManager.default.copyItem(atPath: path("a.sqlite"), toPath: path("laptop.sqlite"))
        let laptop = try store("laptop.sqlite")
        try c.run("add written on C")
        try laptop.run("add written on the laptop")
        try a.run("add written on A")
        try laptop.run("sync \(path("c.sqlite"))")
        for _ in 1...2 { try a.run("sync \(path("c.sqlite"))") }
        try laptop.run("sync \(path("c.sqlite"))")
        #expect(try a.notebook.store.syncStoreID() != laptop.notebook.store.syncStoreID())
        for session in [a, laptop, c] { #expect(try session.notebook.store.count() == 4) }
        #expect(try memos(a) == memos(c))
        #expect(try memos(laptop) == memos(c))
    }

    /// A store put back from an older backup gets again what peers received from it since,
    /// and peers get what it writes after the restore.
    @Test func aStoreRestoredFromABackupConverges() throws {
        let a = try store("a.sqlite"), c = try store("c.sqlite")
        try a.run("add first")
        try a.run("sync \(path("c.sqlite"))")
        let backup = try Data(contentsOf: URL(fileURLWithPath: path("a.sqlite")))
        try c.run("add from C")
        try a.run("add lost with the disk")
        try a.run("sync \(path("c.sqlite"))")
        try backup.write(to: URL(fileURLWithPath: path("restored.sqlite")))
        // The backup is put back in place of the file, as `cp backup a.sqlite` does.
        try FileManager.default.removeItem(atPath: path("a.sqlite"))
        try FileManager.default.moveItem(atPath: path("restored.sqlite"), toPath: path("a.sqlite"))
        let restored = try store("a.sqlite")
        try restored.run("add after the restore")
        for _ in 1...2 { try restored.run("sync \(path("c.sqlite"))") }
        #expect(try restored.notebook.store.count() == 4)
        #expect(try memos(restored) == memos(c))
    }

    /// Text and tags merge apart: concurrent tags both stay, a tag change never reverts a
    /// text edit, and a tag removed on one side (untouched on the other) goes.
    @Test func tagsMergeApartFromText() throws {
        let a = try store("a.sqlite"), b = try store("b.sqlite")
        try a.run(["add --tag old one", "add two", "sync \(path("b.sqlite"))", "tag 1 work"])
        try b.run(["tag 1 home", "untag 1 old"])
        try a.run("edit 2 two, edited on a")
        try b.run("tag 2 important")
        try a.run("sync \(path("b.sqlite"))")
        #expect(try memos(a) == memos(b))
        #expect(try a.notebook.store.count() == 2, "no conflict copy")
        #expect(try memo(a, "one").hasSuffix(#""tags":["home","work"]}"#))
        #expect(try memo(a, "two, edited on a").hasSuffix(#""tags":["important"]}"#))
        #expect(try a.run("sync \(path("b.sqlite"))").hasSuffix(": 0 memos sent, 0 received\n"))
    }

    /// A store made by export and import holds the same versions as its source: a delete or
    /// an edit made on it after the import wins, without a conflict copy.
    @Test func aStoreMadeByExportAndImportAgreesWithItsSource() throws {
        let a = try store("a.sqlite"), b = try store("b.sqlite")
        for text in ["--tag y one @x", "two", "three"] { try a.run("add \(text)") }
        try a.run("export \(path("all.jsonl"))")
        try b.run("import \(path("all.jsonl"))")
        try b.run("delete 2")
        try b.run("edit 3 three, edited on b")
        try b.run("untag 1 y")
        #expect(try b.run("sync \(path("a.sqlite"))").hasSuffix(": 3 memos sent, 0 received\n"))
        #expect(try memos(a) == memos(b))
        #expect(try a.notebook.store.count() == 2)
        #expect(try !a.run("list").contains("@conflict"))
        #expect(try memo(a, "one @x").hasSuffix(#""tags":["x"]}"#), "the tag removed on b goes")
    }

    /// Two versions with the same text, dates and tags are one version, whatever their
    /// histories (two stores that imported one file).
    @Test func equalVersionsWithoutACommonHistoryAreOne() throws {
        let a = try store("a.sqlite"), b = try store("b.sqlite"), source = try store("source.sqlite")
        try source.run("add shared --tag t")
        try source.run("export \(path("one.jsonl"))")
        try a.run("import \(path("one.jsonl"))")
        try b.run("import \(path("one.jsonl"))")
        #expect(try a.run("sync \(path("b.sqlite"))").hasSuffix(": 0 memos sent, 0 received\n"))
        #expect(try source.run("sync \(path("a.sqlite"))").hasSuffix(": 0 memos sent, 0 received\n"))
    }
}

/// The exported line of the memo whose text is `content`, or "".
private func memo(_ session: ScriptedNotebook, _ content: String) throws -> String {
    try session.dump().first { $0.contains(#""content":"\#(content)""#) } ?? ""
}

/// A side whose commit fails, as a full disk or a kill between the two saves makes it.
private final class FailingCommit: SyncEndpoint {
    private let side: LocalSyncEndpoint

    init(_ side: LocalSyncEndpoint) { self.side = side }

    var displayPath: String { side.displayPath }
    func identity() throws(StoreError) -> SyncIdentityCard { try side.identity() }
    func open(at time: Timestamp, peer: String) throws(StoreError) -> String { try side.open(at: time, peer: peer) }
    func cursor(of peer: String) throws(StoreError) -> SyncCursor? { try side.cursor(of: peer) }
    func changes(since cursor: SyncCursor?, at time: Timestamp) throws(StoreError) -> SyncChanges {
        try side.changes(since: cursor, at: time)
    }
    func records(_ uuids: [String]) throws(StoreError) -> [SyncRecord] { try side.records(uuids) }
    func apply(_ records: [SyncRecord], received cursor: SyncCursor, from peer: String, clock: Int64) throws(StoreError)
    {
        try side.apply(records, received: cursor, from: peer, clock: clock)
    }
    func commit(peer: String) throws(StoreError) { throw .unexpected("the disk is full") }
    func abandon() { side.abandon() }
}
