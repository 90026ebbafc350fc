import Glibc

/// Files only their owner may read: the store and the REPL history hold private text.
package enum PrivateFiles {
    /// Creates the missing folders above `path` with mode 0700; existing ones are left as they
    /// are. The folders it created, outermost first.
    @discardableResult
    package static func createParentFolders(of path: String) throws(StoreError) -> [String] {
        var folder = "", created: [String] = []
        for component in path.split(separator: "/").dropLast() {
            folder += "/" + component
            if mkdir(folder, 0o700) == 0 {
                created.append(folder)
            } else if errno != EEXIST {
                throw .cannotOpen(
                    path: path, reason: "cannot create folder \(folder): \(String(cString: strerror(errno)))")
            }
        }
        return created
    }

    /// Refuses a `path` whose folder does not exist, naming that folder.
    package static func requireParentFolder(of path: String) throws(StoreError) {
        let folder = String(path[..<(path.lastIndex(of: "/") ?? path.startIndex)])
        var status = stat()
        if !folder.isEmpty, stat(folder, &status) != 0, errno == ENOENT { throw .refused(.missingFolder(folder)) }
    }

    /// Creates `path` with mode 0600 if it does not exist yet, and says whether it did; a
    /// folder at `path` is refused.
    @discardableResult
    package static func createFile(at path: String) throws(StoreError) -> Bool {
        let descriptor = open(path, O_CREAT | O_EXCL | O_WRONLY | O_CLOEXEC, 0o600)
        let created = descriptor >= 0
        if created {
            close(descriptor)
        } else if errno != EEXIST {
            throw .cannotOpen(path: path, reason: String(cString: strerror(errno)))
        }
        var status = stat()
        if stat(path, &status) == 0, status.st_mode & S_IFMT == S_IFDIR {
            throw .cannotOpen(path: path, reason: "it is a folder, not a file")
        }
        return created
    }

    /// Gives a file's companions (SQLite's `-wal` and `-shm`) the file's own permission bits.
    ///
    /// SQLite creates them with the mode the store had at that moment; a store read while it
    /// was 0400 would otherwise leave 0400 companions behind, and every later write would fail
    /// long after the store itself was made writable again.
    package static func matchCompanionModes(of path: String, suffixes: [String]) {
        var store = stat()
        guard stat(path, &store) == 0 else { return }
        let mode = store.st_mode & 0o777
        for suffix in suffixes {
            var companion = stat()
            let companionPath = path + suffix
            guard stat(companionPath, &companion) == 0, companion.st_mode & 0o777 != mode,
                companion.st_uid == getuid()
            else { continue }
            chmod(companionPath, mode)
        }
    }
}
