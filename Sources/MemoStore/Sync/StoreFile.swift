import Glibc

/// Which file a store is: its device and inode, or "" in memory. A copy of a store file is
/// another file, so a store whose file is not the one it noted is a copy (SPEC §4b).
package enum StoreFile {
    package static func identity(of path: String) -> String {
        guard path != ":memory:" else { return "" }
        var status = stat()
        guard stat(path, &status) == 0 else { return "" }
        return "\(status.st_dev):\(status.st_ino)"
    }
}
