import CSQLite
import Glibc

/// A store file this process created when it opened the store, known by its device and
/// inode: the one file `removeIfUnused` may take away again, when the command that created
/// it failed ("all or nothing" includes the file).
package struct CreatedStoreFile: Sendable, Equatable {
    package let path: String
    private let device: UInt64
    private let inode: UInt64
    /// The folders made for it (the default store's, on a first run), outermost first.
    private let folders: [String]

    /// The file at `path` as it is now, or nil when there is none.
    init?(path: String, folders: [String] = []) {
        var status = stat()
        guard lstat(path, &status) == 0 else { return nil }
        self.path = path
        device = UInt64(status.st_dev)
        inode = UInt64(status.st_ino)
        self.folders = folders
    }

    /// Removes the file, with SQLite's `-wal` and `-shm` beside it and the folders made for it,
    /// when it is still the file this process created, no other process has it open, and it
    /// holds no memo and no history: what a failed first command leaves. Anything else is
    /// left as it is. Call it once this process's connection to the file is closed (an open
    /// one keeps the file). Whether it removed the file.
    @discardableResult
    package func removeIfUnused() -> Bool {
        let descriptor = open(path, O_RDWR | O_NOFOLLOW | O_CLOEXEC)
        guard descriptor >= 0 else { return false }
        // Closing the descriptor ends the lock: after the file and its companions are gone.
        defer { close(descriptor) }
        var status = stat()
        guard fstat(descriptor, &status) == 0, isThisFile(status),
            // While held, no other connection can open the store: SQLite waits for the lock.
            memo_lock_sqlite_lock_bytes(descriptor) == 0,
            companionIsEmpty("-wal"), holdsNothing(),
            lstat(path, &status) == 0, isThisFile(status)
        else { return false }
        for suffix in ["", "-wal", "-shm"] { unlink(path + suffix) }
        // Only while empty: a folder something else was put in meanwhile stays.
        for folder in folders.reversed() where rmdir(folder) != 0 { break }
        return true
    }

    private func isThisFile(_ status: stat) -> Bool {
        UInt64(status.st_dev) == device && UInt64(status.st_ino) == inode
    }

    /// Whether SQLite's companion file is missing or empty: a write-ahead log with frames
    /// holds changes not yet in the file.
    private func companionIsEmpty(_ suffix: String) -> Bool {
        var status = stat()
        return stat(path + suffix, &status) != 0 || status.st_size == 0
    }

    /// Whether the store holds no memo, deleted memo or history entry, read without a lock
    /// (the caller holds SQLite's lock bytes) nor a write-ahead log (it is empty).
    private func holdsNothing() -> Bool {
        do {
            let database = try Database(
                path: StoreOpening.immutableURI(path), flags: SQLITE_OPEN_READONLY | SQLITE_OPEN_URI)
            return try database.integer(
                """
                SELECT NOT EXISTS (SELECT 1 FROM memo) AND NOT EXISTS (SELECT 1 FROM memo_tombstone)
                    AND NOT EXISTS (SELECT 1 FROM history)
                """) == 1
        } catch {
            return false
        }
    }
}
