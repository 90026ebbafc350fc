import Foundation

/// Files only their owner may read: the store and the REPL history hold private text.
package enum PrivateFiles {
    /// Creates the missing folders above `path` with mode 0700; existing ones are left as they are.
    package static func createParentFolders(of path: String) throws(StoreError) {
        var folder = ""
        for component in path.split(separator: "/").dropLast() {
            folder += "/" + component
            if mkdir(folder, 0o700) != 0 && errno != EEXIST {
                throw .cannotOpen(path: path, reason: "cannot create folder \(folder): \(String(cString: strerror(errno)))")
            }
        }
    }

    /// Creates `path` with mode 0600 if it does not exist yet.
    package static func createFile(at path: String) throws(StoreError) {
        let descriptor = open(path, O_CREAT | O_EXCL | O_WRONLY | O_CLOEXEC, 0o600)
        if descriptor >= 0 {
            close(descriptor)
        } else if errno != EEXIST {
            throw .cannotOpen(path: path, reason: String(cString: strerror(errno)))
        }
    }
}
