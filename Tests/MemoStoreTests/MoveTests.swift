import Foundation
import Testing

@testable import MemoStore

/// `MemoStore.move` (docs/REFERENCE.md, Back-dating): a memo moved to another insert date takes
/// its place in the order, in one change of kind `move` that undo and redo take whole, and
/// that the memo's next sync counts as a change of its text.
@Suite("Moving a memo")
struct MoveTests {
    let store: MemoStore

    init() throws {
        store = try MemoStore.open(.memory)
    }

    private func at(_ seconds: Int64) -> Timestamp { Timestamp(secondsSince1970: 946_684_800 + seconds) }

    @Test func aMoveIsOneChangeThatUndoAndRedoTakeWhole() throws {
        for (number, name) in ["a", "b", "c"].enumerated() {
            try store.insert(draft(name, at: Int64(number) * 10, tags: ["t"], number: number + 1))
        }
        let before = try store.all()
        let moved = try store.move(id: 3, to: at(-100), at: at(50))
        #expect(moved.insertDate == at(-100) && moved.updateDate == at(50))
        #expect(moved.content == "c" && moved.tags == ["t"] && moved.uuid == before[0].uuid)
        #expect(try store.all().map(\.content) == ["b", "a", "c"], "newest first: c is now the oldest")
        let entry = try #require(try store.history(limit: 1).first)
        #expect(entry.kind == .move && entry.memoCount == 1 && entry.time == at(50))
        let after = try store.all()
        try store.undo(.latest, at: at(60))
        #expect(try store.all() == before)
        try store.redo(.latest, at: at(70))
        #expect(try store.all() == after)
    }

    @Test func aMoveWithTextIsOneEditAndTheSameDateChangesNothing() throws {
        try store.insert(draft("first", at: 0, number: 1))
        let entries = try store.history(limit: nil).count
        #expect(try store.move(id: 1, to: at(0), at: at(5)).updateDate == nil)
        #expect(try store.history(limit: nil).count == entries, "no entry for no change")
        let edited = try store.move(id: 1, to: at(-5), content: "first, rewritten", at: at(6))
        #expect(edited.content == "first, rewritten" && edited.insertDate == at(-5))
        #expect(try store.history(limit: 1).first?.kind == .edit)
        try store.undo(.latest, at: at(7))
        #expect(try store.memo(id: 1)?.content == "first" && store.memo(id: 1)?.insertDate == at(0))
        #expect(throws: StoreError.memoNotFound([9])) { try store.move(id: 9, to: at(1), at: at(8)) }
    }

    /// A store that keeps versions stamps a move as a change of the memo's text, even one that
    /// leaves the update date as it was (the same instant): its next sync sends it.
    @Test func aMoveCountsAsAChangeOfTheText() throws {
        try store.merge(draft("first", at: 0, number: 1), at: at(1)) // an import: the store keeps versions
        try store.move(id: 1, to: at(-5), at: at(3))
        let version = try store.database.cached("SELECT version, text_seq FROM memo WHERE id = 1").firstRow([]) {
            ($0.string(at: 0), $0.int64(at: 1))
        }
        try store.move(id: 1, to: at(-9), at: at(3))
        let moved = try store.database.cached("SELECT version, text_seq FROM memo WHERE id = 1").firstRow([]) {
            ($0.string(at: 0), $0.int64(at: 1))
        }
        #expect(version?.0 != "{}")
        #expect(moved?.0 != version?.0, "the text's version counts the second move")
    }
}
