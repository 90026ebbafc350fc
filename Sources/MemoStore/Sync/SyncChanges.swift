/// One side's part of a sync's first step: its id (new if it just became a store of its own),
/// the cursor the peer records once it has these changes, the change number the side's
/// writes take, and the records the peer lacks.
package struct SyncChanges: Equatable, Sendable, Codable {
    package var storeID: String
    /// Where a peer is once it holds `records`.
    package var cursor: SyncCursor
    /// Where a peer is once it also holds what this sync writes here (change `seq`): when
    /// the peer ends the sync with every memo as this side writes it, the next sync need not
    /// send those memos back.
    package var cursorAfterWrites: SyncCursor
    package var seq: Int64
    package var records: [SyncRecord]

    package init(storeID: String, cursor: SyncCursor, cursorAfterWrites: SyncCursor, seq: Int64, records: [SyncRecord])
    {
        self.storeID = storeID
        self.cursor = cursor
        self.cursorAfterWrites = cursorAfterWrites
        self.seq = seq
        self.records = records
    }
}
