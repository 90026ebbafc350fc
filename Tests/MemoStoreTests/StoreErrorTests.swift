import Testing

@testable import MemoStore

@Suite("Store errors")
struct StoreErrorTests {
    private struct NotAStoreError: Error, CustomStringConvertible {
        var description: String { "a defect" }
    }

    @Test func anUnknownErrorIsShownAsUnexpectedNeverAsAnSQLiteFailure() {
        #expect(throws: StoreError.unexpected("a defect")) { try StoreError.wrapping { throw NotAStoreError() } }
        let error = StoreError.unexpected("a defect")
        #expect(error.description == "unexpected error: a defect")
        #expect(!error.isStoreUnusable)
    }

    @Test func refusalsAreAboutTheRequestNotTheStore() throws {
        let store = try MemoStore.open(.memory)
        let refusals: [StoreError] = [
            .memoNotFound([4]), .nothingToUndo, .nothingToRedo, .noOpenBatch,
            .syncWithItself(path: "a.sqlite"), .invalidTag("a b")
        ]
        for refusal in refusals {
            guard case .refused = refusal else { Issue.record("\(refusal) is not a refusal"); continue }
            #expect(!refusal.isStoreUnusable)
        }
        #expect(throws: StoreError.refused(.memoNotFound([7]))) { try store.existingMemo(id: 7) }
        #expect(throws: StoreError.refused(.nothingToUndo)) { try store.undo(1, at: Timestamp(secondsSince1970: 0)) }
    }
}
