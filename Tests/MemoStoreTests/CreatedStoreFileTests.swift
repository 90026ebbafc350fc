import Foundation
import MemoTestSupport
import Testing

@testable import MemoStore

/// `CreatedStoreFile.removeIfUnused`: the store file a failed first command created goes,
/// with its -wal and -shm; a file still open, or holding a memo, stays.
@Suite("Removing a store file this process created")
struct CreatedStoreFileTests {
    let folder = TemporaryFolder()

    /// A new store file, opened and closed again; what opening said it created.
    private func createdAndClosed(_ name: String) throws -> CreatedStoreFile? {
        try MemoStore.open(.file(path: folder.file(name))).createdFile
    }

    private var names: [String] {
        (try? FileManager.default.contentsOfDirectory(atPath: folder.path).sorted()) ?? []
    }

    @Test func anEmptyStoreThisProcessCreatedGoesWithItsCompanions() throws {
        let created = try #require(try createdAndClosed("new.db"))
        #expect(created.removeIfUnused())
        #expect(names.isEmpty)
    }

    @Test func aFileThatWasThereIsNotCreated() throws {
        try #require(FileManager.default.createFile(atPath: folder.file("empty.db"), contents: nil))
        #expect(try createdAndClosed("empty.db") == nil)
    }

    @Test func aStoreStillOpenStays() throws {
        let store = try MemoStore.open(.file(path: folder.file("new.db")))
        let created = try #require(store.createdFile)
        #expect(!created.removeIfUnused())
        #expect(try store.count() == 0)
        #expect(names.contains("new.db"))
    }

    @Test func aStoreHoldingAMemoStays() throws {
        let created = try #require(try createdAndClosed("new.db"))
        try MemoStore.open(.file(path: folder.file("new.db"))).insert(draft("written meanwhile"))
        #expect(!created.removeIfUnused())
        #expect(try MemoStore.open(.file(path: folder.file("new.db"))).count() == 1)
    }

    @Test func aFileThatReplacedItStays() throws {
        let created = try #require(try createdAndClosed("new.db"))
        try FileManager.default.removeItem(atPath: folder.file("new.db"))
        try #require(FileManager.default.createFile(atPath: folder.file("new.db"), contents: nil))
        #expect(!created.removeIfUnused())
        #expect(names == ["new.db"])
    }

    /// What opening checks to open the path again when another process removed the file
    /// just as this one opened it.
    @Test func aConnectionSeesItsFileRemoved() throws {
        let store = try MemoStore.open(.file(path: folder.file("new.db")))
        #expect(!store.database.fileHasMoved)
        try FileManager.default.removeItem(atPath: folder.file("new.db"))
        #expect(store.database.fileHasMoved)
    }
}
