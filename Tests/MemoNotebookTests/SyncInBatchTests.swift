import Testing
@testable import MemoNotebook
@testable import MemoStore

/// A sync run inside a batch joins the batch's transaction, and a refused sync leaves
/// nothing of itself in it.
@Suite("Sync inside a batch")
struct SyncInBatchTests {
    let scratch = Scratch()

    private func store(_ name: String) throws -> ScriptedNotebook {
        try ScriptedNotebook(store: MemoStore.open(.file(path: scratch.file(name))), uuids: RandomUUIDs())
    }

    @Test func aRefusedSyncWritesNothingIntoTheOpenBatch() throws {
        let a = try store("a.sqlite"), b = try store("b.sqlite")
        try a.run("add one")
        try b.run("add other one")
        try b.run("add other two")
        try b.notebook.store.database.execute("UPDATE memo SET content = '' WHERE id = 2")
        try a.run("begin")
        #expect(throws: StoreError.self) { try a.run("sync \(scratch.file("b.sqlite"))") }
        #expect(try a.run("save") == "saved 0 changes\n")
        #expect(try a.notebook.store.count() == 1)
        #expect(try a.run("history -n 1").contains("add"))
    }

    @Test func aSyncInABatchIsSavedWithIt() throws {
        let a = try store("a.sqlite"), b = try store("b.sqlite")
        try b.run("add from b")
        try a.run("begin")
        try a.run("add in the batch")
        #expect(try a.run("sync \(scratch.file("b.sqlite"))").hasSuffix(": 1 memo sent, 1 received\n"))
        try a.run("save")
        #expect(try a.notebook.store.count() == 2)
        #expect(try b.notebook.store.count() == 2)
    }
}
