/// Everything the store can fail at, with a one-line message for people: the store cannot
/// be used (`isStoreUnusable`, exit status 3), a command was interrupted, or the store
/// refused one request (`refused`, a `StoreRefusal`).
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
    /// The user pressed Ctrl-C while the command ran; nothing of it was kept.
    case interrupted
    /// A store being synced holds a memo memo would never write (another program made it);
    /// nothing was synced.
    case invalidSyncMemo(path: String, uuid: String, reason: String)
    /// SQLite failed while using the store.
    case sqlite(SQLiteError)
    /// The store is fine; it refuses what was asked of it.
    case refused(StoreRefusal)
    /// An error none of the store's layers knows: a defect, shown as what it is.
    case unexpected(String)
    /// The other side of a sync, a memo reached through another program (`ssh`), failed
    /// or could not be reached; `storeUnusable` when its store cannot be opened or used.
    case remote(place: String, problem: String, storeUnusable: Bool)

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
        case .interrupted:
            "interrupted"
        case .invalidSyncMemo(let path, let uuid, let reason):
            "\(path) holds a memo that cannot be synced (\(uuid)): \(reason); nothing was synced"
        case .sqlite(let error):
            "store failure: \(error.explanation)"
        case .refused(let refusal):
            refusal.description
        case .unexpected(let description):
            "unexpected error: \(description)"
        case .remote(let place, let problem, _):
            "\(place): \(problem)"
        }
    }

    /// True when the store itself cannot be opened or used (exit status 3), as opposed to
    /// one request being wrong.
    package var isStoreUnusable: Bool {
        switch self {
        case .notAMemoStore, .newerSchema, .brokenReferences, .cannotOpen, .invalidSyncMemo: true
        case .sqlite(let error): error.isStoreFailure
        case .remote(_, _, let storeUnusable): storeUnusable
        case .interrupted, .refused, .unexpected: false
        }
    }
}

extension StoreError {
    /// The store error for a failed SQLite call: an interrupted statement means Ctrl-C.
    package init(_ error: SQLiteError) {
        self = error.code == .interrupt ? .interrupted : .sqlite(error)
    }

    /// Runs `body`, reporting SQLite failures as store errors. Anything else is unexpected,
    /// and says so: it is never passed off as an SQLite failure.
    package static func wrapping<T>(_ body: () throws -> T) throws(StoreError) -> T {
        do {
            return try body()
        } catch let error as StoreError {
            throw error
        } catch let error as SQLiteError {
            throw StoreError(error)
        } catch {
            throw .unexpected(String(describing: error))
        }
    }
}
