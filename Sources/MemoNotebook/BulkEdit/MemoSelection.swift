/// The memos a bulk edit opens in one buffer: those `list`'s filters, order and page select
/// (`edit --tag x`), or these ids, in this order (the memos a person picked).
package enum MemoSelection: Equatable, Sendable {
    case listed(ListArguments)
    case ids([Int64])
}

/// What a bulk edit did, in one recorded change: the memos whose text changed, those deleted
/// and those added, each by id; or, when it did nothing, how many memos it left as they were.
package struct BulkEditSummary: Equatable, Sendable {
    package var edited: [Int64] = []
    package var deleted: [Int64] = []
    package var added: [Int64] = []
    package var unchanged = 0

    package var isEmpty: Bool { edited.isEmpty && deleted.isEmpty && added.isEmpty }
}
