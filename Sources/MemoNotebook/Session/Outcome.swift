import MemoStore
import MemoSync

/// What running a command produced, before it is rendered as text or JSON.
package enum Outcome {
    case added(Memo)
    case edited(Memo)
    /// `edit` given back its unchanged text by the user, or an `editIfStill` whose memo
    /// changed meanwhile: nothing happened.
    case unchanged(String)
    /// A listing, streamed: rows are read as they are rendered; text output may head them
    /// by day or month. For a search, the search: renderers show where each memo matched.
    case memos(MemoCursor, grouping: ListGrouping? = nil, search: SearchQuery? = nil)
    /// An export to standard output, streamed in its format whatever the renderer.
    case exportStream(MemoCursor, writer: any MemoWriter)
    case exported(count: Int, path: String)
    case imported(ImportSummary)
    /// What `sync` moved each way, with the other store's path as typed; through ssh, what
    /// crossed the connection.
    case synced(SyncSummary, path: String, traffic: SyncTraffic? = nil)
    case batchBegun
    /// A saved or rolled-back batch and how many changes it held.
    case batchSaved(changes: Int)
    case batchRolledBack(changes: Int)
    /// The change just undone or redone, as the history now has it.
    case undone(HistoryEntry)
    case redone(HistoryEntry)
    /// `undo --sync`: the sync, now undone, and what its undo put back and kept.
    case syncUndone(SyncUndoPreview)
    case history([HistoryEntry])
    /// Whole memos, each with its links both ways (docs/REFERENCE.md, Links).
    case shown([ShownMemo])
    /// The memos deleted, and the memos left whose texts referenced them.
    case deleted([Int64], referencedBy: [MemoStore.LinkedMemo] = [])
    /// The memo after `tag` or `untag`.
    case retagged(Memo)
    case tags([TagCount])
    case count(Int)
    /// A link graph, streamed, in the format asked for (nil: the renderer's), drawn so for dot.
    case graph(LinkGraph, format: GraphFormat?, drawing: GraphDrawing)
    /// `links`: the references of the selected memos' texts, by memo and place.
    case textLinks([MemoStore.TextLink])
    /// `links --unlink`: how many references it made words, in how many memos.
    case unlinked(references: Int, memos: Int)
    case info(NotebookInfo)
    case help(topic: String?)
    case quit
    case clockSet(Timestamp)
    case fixtureLoaded(name: String, added: Int)
    case fixtures([Fixture])
    /// `list --ids` and `search --ids`: the ids alone, streamed; for a search, a one-shot
    /// command that finds nothing fails.
    case memoIDs(MemoCursor, isSearch: Bool)
    /// The ids `pick` was given.
    case picked([Int64])
    /// A pick that ended with nothing picked: nothing is shown, and a one-shot command fails.
    case nothingPicked
    /// `tag -i`: each memo picked, tagged.
    case retaggedEach([Memo])
    /// What a bulk edit changed, in one change.
    case bulkEdited(BulkEditSummary)
    /// `tag --rename`: the names, and how many memos it retagged.
    case tagRenamed(from: String, to: String, memos: Int)
    /// The memo after `edit ID --date DATE [TEXT]` moved it (docs/REFERENCE.md, Back-dating),
    /// and whether the same change gave it the new text.
    case moved(Memo, edited: Bool)
    case calendar(CalendarYear)
    case statistics(MemoStatistics)
}

/// A memo as `show` gives it (docs/REFERENCE.md, Links): with its links both ways, its text
/// as a person here reads it (each `#ID` link as its memo's id here), and its handle, the
/// stable form that names it in every store.
package struct ShownMemo {
    package var memo: Memo
    package var links: MemoStore.Links
    package var text: String
    package var handle: MemoHandle
}

/// What an import did.
package struct ImportSummary: Equatable, Sendable {
    package var added = 0
    package var updated = 0
    /// Of `added`: records whose uuid named an unrelated memo here, added under one of their own.
    package var addedUnderNewUUID = 0
    /// Records whose memo the store already had in this version or a newer one.
    package var skipped = 0
    /// Of `skipped`: records that repeat a memo already there (text, tags, insert date).
    package var alreadyThere = 0
    /// Of `skipped`: records whose memo here differs but was written later than they were
    /// edited (or they carry no edit date).
    package var notNewer = 0
    /// Records without text (Core Data rows with empty or NULL text attributes, empty notes).
    package var empty = 0
    /// What was read, when it was not one of memo's own files.
    package var source: ImportSource?

    package init() {}

    package var records: Int { added + updated + skipped + empty }

    /// Counts a skipped record, and why.
    mutating func skip(alreadyThere isThere: Bool) {
        skipped += 1
        if isThere { alreadyThere += 1 } else { notNewer += 1 }
    }
}

/// Where an import's records came from, for its summary.
package enum ImportSource: Equatable, Sendable {
    /// jrnl's JSON export.
    case jrnl
    /// Markdown notes: `files` notes of `folder` (nil for one note); files that are not
    /// notes were left out (`leftOutCount`, the first few named).
    case notes(folder: String?, files: Int, leftOut: [String], leftOutCount: Int)
}

/// The facts `info` reports: the store's, and the session's.
package struct NotebookInfo: Equatable, Sendable {
    package var store: StoreInfo
    /// Changes made in the open batch and not saved yet.
    package var unsavedChanges: Int
}
