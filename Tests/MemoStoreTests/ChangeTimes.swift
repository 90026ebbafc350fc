@testable import MemoStore

/// The store's write methods take the time of the change from the session's clock; these
/// tests check what a change does, not when, so they make every change at one fixed time.
extension MemoStore {
    static let testChangeTime = Timestamp(secondsSince1970: 946_684_800)

    func delete(ids: [Int64]) throws(StoreError) -> [Int64] {
        try delete(ids: ids, at: Self.testChangeTime).ids
    }

    @discardableResult
    func addTags(_ tags: [String], to id: Int64) throws(StoreError) -> Memo {
        try addTags(tags, to: id, at: Self.testChangeTime)
    }

    @discardableResult
    func removeTags(_ tags: [String], from id: Int64) throws(StoreError) -> Memo {
        try removeTags(tags, from: id, at: Self.testChangeTime)
    }
}
