/// Everything the store can refuse or fail at, with a one-line message for people.
package enum StoreError: Error, Equatable, CustomStringConvertible {
    /// The file exists but is not a memo store (not SQLite, or another program's database).
    case notAMemoStore(path: String, reason: String)
    /// The store was written by a newer memo; opening it could lose data.
    case newerSchema(path: String, found: Int, supported: Int)
    /// Upgrading the store would keep rows of `table` that refer to rows missing from
    /// `parent` (`PRAGMA foreign_key_check`), so it was not upgraded.
    case brokenReferences(path: String, table: String, parent: String)
    /// The file or its folder cannot be opened or created.
    case cannotOpen(path: String, reason: String)
    /// Every id asked for that has no memo.
    case memoNotFound([Int64])
    case tagNotFound(memo: Int64, tag: String)
    case invalidContent(String)
    case invalidTag(String)
    /// A search that cannot be understood.
    case invalidSearch(query: String, reason: String)
    case batchAlreadyOpen
    case noOpenBatch
    case nothingToUndo
    case nothingToRedo
    case alreadyUndone(HistoryEntry)
    /// A later change touched the same memos: undoing would destroy it.
    case undoRefused(HistoryEntry, later: HistoryEntry)
    case redoRefused(HistoryEntry, later: HistoryEntry)
    /// The user pressed Ctrl-C while the command ran; nothing of it was kept.
    case interrupted
    /// `sync` with a store that has this store's identity: itself, or a copy of its file.
    case syncWithItself(path: String)
    /// A store being synced holds a memo memo would never write (another program made it);
    /// nothing was synced.
    case invalidSyncMemo(path: String, uuid: String, reason: String)
    /// SQLite failed while using the store.
    case sqlite(SQLiteError)

    package var description: String {
        switch self {
        case .notAMemoStore(let path, let reason):
            "\(path) is not a memo store (\(reason)); it was left untouched"
        case .newerSchema(let path, let found, let supported):
            "\(path) has schema version \(found), newer than this memo knows (\(supported)); "
                + "it was left untouched: upgrade memo to open it"
        case .brokenReferences(let path, let table, let parent):
            "\(path) cannot be upgraded: rows of its \(table) table refer to rows missing from \(parent); "
                + "it was left untouched"
        case .cannotOpen(let path, let reason):
            "cannot open store \(path): \(reason)"
        case .memoNotFound(let ids) where ids.count == 1:
            "no memo #\(ids[0])"
        case .memoNotFound(let ids):
            "no memos " + ids.map { "#\($0)" }.joined(separator: ", ")
        case .tagNotFound(let memo, let tag):
            "memo #\(memo) has no tag @\(tag)"
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
            "\(entry.label) is already undone"
        case .undoRefused(let entry, let later):
            "cannot undo \(entry.label): the later \(later.label) touched the same memos; undo it first"
        case .redoRefused(let entry, let later):
            "cannot redo \(entry.label): the later \(later.label) touched the same memos"
        case .interrupted:
            "interrupted"
        case .syncWithItself(let path):
            "\(path) is this store or a copy of its file: sync to a new path to make a copy that syncs"
        case .invalidSyncMemo(let path, let uuid, let reason):
            "\(path) holds a memo that cannot be synced (\(uuid)): \(reason); nothing was synced"
        case .sqlite(let error):
            "store failure: \(error.explanation)"
        }
    }

    /// True when the store itself cannot be opened or used (exit status 3), as opposed to
    /// one request being wrong.
    package var isStoreUnusable: Bool {
        switch self {
        case .notAMemoStore, .newerSchema, .brokenReferences, .cannotOpen, .invalidSyncMemo: true
        case .sqlite(let error): error.isStoreFailure
        case .memoNotFound, .tagNotFound, .invalidContent, .invalidTag, .invalidSearch, .interrupted,
             .batchAlreadyOpen, .noOpenBatch, .nothingToUndo, .nothingToRedo, .alreadyUndone, .undoRefused, .redoRefused,
             .syncWithItself: false
        }
    }
}

extension StoreError {
    /// The store error for a failed SQLite call: an interrupted statement means Ctrl-C.
    init(_ error: SQLiteError) {
        self = error.code == .interrupt ? .interrupted : .sqlite(error)
    }

    /// Runs `body`, reporting SQLite failures as store errors.
    package static func wrapping<T>(_ body: () throws -> T) throws(StoreError) -> T {
        do {
            return try body()
        } catch let error as StoreError {
            throw error
        } catch let error as SQLiteError {
            throw StoreError(error)
        } catch {
            throw .sqlite(SQLiteError(code: ResultCode.error.rawValue, message: String(describing: error)))
        }
    }
}
