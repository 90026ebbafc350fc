import CFileAttributes
import Glibc

/// The file that holds a store, as sync identity needs it (docs/REFERENCE.md, Sync: a copied store
/// file, or one restored from an older backup, becomes a store of its own). A copy is another
/// file: its device and inode differ from those the store noted. A backup put back in place
/// is the same file gone back in time: the file's extended attribute `user.memo.history`
/// (kept by the inode, not by the bytes a copy takes) names a later change of this store
/// than the database holds. File systems without extended attributes keep no mark; a peer
/// then finds the restore at the next sync (a checkpoint the store does not hold).
package struct StoreFile: Sendable {
    let path: String

    /// The file of a store at `location`, or nil in memory.
    init?(_ location: StoreLocation) {
        guard case .file(let path) = location else { return nil }
        self.path = path
    }

    /// The device and inode, or "" when the file cannot be read.
    package var identity: String {
        var status = stat()
        guard stat(path, &status) == 0 else { return "" }
        return "\(status.st_dev):\(status.st_ino)"
    }

    /// Whether `path` names this file, as it is or once its missing folders exist
    /// (`sub/../store.sqlite`): checked before a sync opens `path`, so a refused sync with
    /// the store itself creates nothing.
    package func isNamed(by path: String) -> Bool {
        let mine = identity
        return !mine.isEmpty && [path, UserPath.normalized(path)].contains { StoreFile(path: $0).identity == mine }
    }

    private init(path: String) {
        self.path = path
    }

    /// The latest change of a store this file held, as noted by `noteHistory`.
    func history() -> (store: String, seq: Int64)? {
        var buffer = [UInt8](repeating: 0, count: 128)
        let length = getxattr(path, Self.attribute, &buffer, buffer.count)
        guard length > 0 else { return nil }
        let parts = String(decoding: buffer[..<length], as: UTF8.self).split(separator: " ")
        guard parts.count == 2, let seq = Int64(parts[1]) else { return nil }
        return (String(parts[0]), seq)
    }

    /// Notes that the file holds change `seq` of `store`; nothing where the file system
    /// keeps no extended attributes.
    func noteHistory(store: String, seq: Int64) {
        let value = Array("\(store) \(seq)".utf8)
        _ = setxattr(path, Self.attribute, value, value.count, 0)
    }

    private static let attribute = "user.memo.history"
}
