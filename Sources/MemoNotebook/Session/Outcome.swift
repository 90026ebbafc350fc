import MemoStore

/// What running a command produced, before it is rendered as text or JSON.
package enum Outcome {
    case added(Memo)
    case edited(Memo)
    /// A listing, streamed: rows are read as they are rendered.
    case memos(MemoCursor)
    case shown([Memo])
    case deleted([Int64])
    /// The memo after `tag` or `untag`.
    case retagged(Memo)
    case tags([TagCount])
    case count(Int)
    case info(NotebookInfo)
    case help(topic: String?)
    case quit
    case clockSet(Timestamp)
    case fixtureLoaded(name: String, added: Int)
    case fixtures([Fixture])
}

/// The facts `info` reports: the store's, and the session's.
package struct NotebookInfo: Equatable, Sendable {
    package var store: StoreInfo
    package var hasUnsavedChanges: Bool
}
