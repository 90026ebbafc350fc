/// What the store refuses to do while it is fine: a memo or tag that is not there, a text
/// or tag it does not take, an undo that would destroy later work. A refusal is about one
/// request (exit status 1), never about the store (exit status 3).
package enum StoreRefusal: Equatable, Sendable, CustomStringConvertible {
    /// Every id asked for that has no memo.
    case memoNotFound([Int64])
    case tagNotFound(memo: Int64, tag: String)
    /// The memo's text carries the tag inline (`@tag`): it tags the memo while it is there.
    case tagInText(memo: Int64, tag: String)
    case invalidContent(String)
    case invalidTag(String)
    /// A search that cannot be understood.
    case invalidSearch(query: String, reason: String)
    case batchAlreadyOpen
    case noOpenBatch
    case nothingToUndo
    case nothingToRedo
    case alreadyUndone(HistoryEntry)
    /// A later change touched the same memos: undoing would destroy it. When another process
    /// made it, a session cannot undo it; a one-shot `undo` can.
    case undoRefused(HistoryEntry, later: HistoryEntry, fromAnotherProcess: Bool)
    case redoRefused(HistoryEntry, later: HistoryEntry, fromAnotherProcess: Bool)
    /// A plain `undo` whose change is a sync: undoing one must be asked for (`undo --sync`),
    /// as it differs from undoing a change typed here.
    case undoOfSync(HistoryEntry)
    /// `undo --sync` in a store with no sync that is not undone.
    case noSyncToUndo
    /// `sync` with this store's own file (by any path).
    case syncWithItself(path: String)
    /// `sync` from a session whose new memos took the uuids every such run takes.
    case syncOfReproducibleUUIDs
    /// `sync` while a batch (or another all-or-nothing change) is open.
    case syncInBatch
    /// A new store file's folder does not exist: memo creates no folders for a store it was
    /// pointed at (an unmounted disk's mount point would fill the local disk instead).
    case missingFolder(String)
    /// A command that only reads named a store file that does not exist (a typo, most often).
    case noStore(path: String)
    /// `tag --rename` of a tag no memo carries.
    case unknownTag(String)
    /// A memo's insert or update date, or a change's time, outside the years memo keeps
    /// (`Timestamp.representable`): no other memo store or ISO 8601 reader could take it.
    case dateOutsideYears(Timestamp)
    /// `encrypt` of a store that is encrypted already.
    case alreadySealed
    /// `decrypt` or `encrypt --change-passphrase` of a store that is not encrypted.
    case notSealed
    /// `encrypt` while another memo process has the store open.
    case storeInUse
    /// `sync` from an encrypted store with one at `path` that is not encrypted (or does not
    /// exist yet, and would be created plain), where no one can be asked and
    /// `--allow-plaintext` was not given.
    case plaintextSync(path: String)

    package var description: String {
        switch self {
        case .memoNotFound(let ids) where ids.count == 1:
            "no memo #\(ids[0])"
        case .memoNotFound(let ids):
            "no memos " + ids.map { "#\($0)" }.joined(separator: ", ")
        case .tagNotFound(let memo, let tag):
            "memo #\(memo) has no tag @\(tag)"
        case .tagInText(let memo, let tag):
            "@\(tag) is in the text of memo #\(memo): it tags the memo while it is there; edit the text to remove it"
        case .invalidContent(let reason):
            reason
        case .invalidTag(let name):
            "invalid tag '\(name)': use letters, digits, '_' and '-'"
        case .invalidSearch(let query, let reason):
            "invalid search '\(query)': \(reason)"
        case .batchAlreadyOpen:
            "a batch is already open: save or roll it back first"
        case .noOpenBatch:
            "no batch is open ('begin' starts one)"
        case .nothingToUndo:
            "nothing to undo"
        case .nothingToRedo:
            "nothing to redo"
        case .alreadyUndone(let entry):
            "\(entry.label) is already undone: another process undid it ('memo history' lists the undo)"
        case .undoRefused(let entry, let later, let fromAnotherProcess):
            "cannot undo \(entry.label): "
                + Self.laterChange(later, fromAnotherProcess: fromAnotherProcess, remedy: "; undo it first")
        case .redoRefused(let entry, let later, let fromAnotherProcess):
            "cannot redo \(entry.label): " + Self.laterChange(later, fromAnotherProcess: fromAnotherProcess, remedy: "")
        case .undoOfSync(let entry):
            "the latest change is \(entry.label), and a plain 'undo' does not take back a sync:"
                + " 'undo --sync' does (it keeps every memo the sync brought)"
        case .noSyncToUndo:
            "no sync to undo"
        case .syncWithItself(let path):
            "\(path) is this store's own file: a store syncs with another file (a new path becomes a copy)"
        case .syncOfReproducibleUUIDs:
            "this in-memory session gave its memos the uuids every in-memory run gives (00000000-…-000000000001, …):"
                + " synced, they would be taken for other runs' memos; run with --store FILE to sync"
        case .syncInBatch:
            "sync cannot run inside a batch: what it writes to the other store could not be rolled back; 'save' or 'rollback' first"
        case .missingFolder(let folder):
            "the folder \(folder) does not exist: nothing was created there"
        case .noStore(let path):
            "no store at \(path): nothing was created (the first change there creates it)"
        case .unknownTag(let name):
            "no memo has the tag @\(name): nothing renamed"
        case .dateOutsideYears(let date):
            (date < Timestamp.representable.lowerBound
                ? "memo keeps no date before 0001-01-01T00:00:00.000Z"
                : "memo keeps no date after \(Timestamp.lastRepresentableText)")
                + " (the years 0001 to 9999, in UTC): nothing was written"
        case .alreadySealed:
            "the store is encrypted already (memo encrypt --change-passphrase gives it a new passphrase)"
        case .notSealed:
            "the store is not encrypted: nothing was changed"
        case .storeInUse:
            "another memo process has the store open (a session, a server, a sync): close it and try again; nothing was changed"
        case .plaintextSync(let path):
            "\(path) is not an encrypted store, and this one is: a sync would leave your memos there readable by anyone"
                + " who gets the file; nothing was synced (encrypt that store first, or give --allow-plaintext)"
        }
    }

    /// Names the later change that blocks an undo or redo, and what can be done about it.
    private static func laterChange(_ later: HistoryEntry, fromAnotherProcess: Bool, remedy: String) -> String {
        if later.kind == .sync {
            return "the later \(later.label) touched the same memos; 'undo --sync' takes back the store's latest sync"
        }
        guard fromAnotherProcess else { return "the later \(later.label) touched the same memos" + remedy }
        return "the later \(later.label) came from another process and touched the same memos;"
            + " a one-shot 'memo undo' from the shell takes the store's latest change"
    }
}

/// The refusals as store errors, by name: `throw .nothingToUndo`, `StoreError.memoNotFound([4])`.
extension StoreError {
    package static func memoNotFound(_ ids: [Int64]) -> StoreError { .refused(.memoNotFound(ids)) }
    package static func tagNotFound(memo: Int64, tag: String) -> StoreError {
        .refused(.tagNotFound(memo: memo, tag: tag))
    }
    package static func tagInText(memo: Int64, tag: String) -> StoreError { .refused(.tagInText(memo: memo, tag: tag)) }
    package static func invalidContent(_ reason: String) -> StoreError { .refused(.invalidContent(reason)) }
    package static func invalidTag(_ name: String) -> StoreError { .refused(.invalidTag(name)) }
    package static func invalidSearch(query: String, reason: String) -> StoreError {
        .refused(.invalidSearch(query: query, reason: reason))
    }
    package static let batchAlreadyOpen = StoreError.refused(.batchAlreadyOpen)
    package static let noOpenBatch = StoreError.refused(.noOpenBatch)
    package static let nothingToUndo = StoreError.refused(.nothingToUndo)
    package static let nothingToRedo = StoreError.refused(.nothingToRedo)
    package static func alreadyUndone(_ entry: HistoryEntry) -> StoreError { .refused(.alreadyUndone(entry)) }
    package static func undoRefused(_ entry: HistoryEntry, later: HistoryEntry, fromAnotherProcess: Bool) -> StoreError
    {
        .refused(.undoRefused(entry, later: later, fromAnotherProcess: fromAnotherProcess))
    }
    package static func redoRefused(_ entry: HistoryEntry, later: HistoryEntry, fromAnotherProcess: Bool) -> StoreError
    {
        .refused(.redoRefused(entry, later: later, fromAnotherProcess: fromAnotherProcess))
    }
    package static func syncWithItself(path: String) -> StoreError { .refused(.syncWithItself(path: path)) }
}
