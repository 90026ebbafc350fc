import Glibc
import MemoStore

/// The file an export writes, checked before a byte is written: an export never writes
/// over the store it reads (by whatever name: a symlink, a hard link, `./x`) nor over any
/// other SQLite database or the log beside one, which a mistyped name could otherwise destroy.
struct ExportDestination {
    /// Where the bytes go: a symlink's target, so the link stays a link.
    let path: String
    /// The name the user gave, for messages.
    let shownPath: String
    /// True for an existing device or pipe (`/dev/null`, a FIFO): written in place, since it
    /// cannot be replaced.
    let isSpecialFile: Bool

    /// The first 16 bytes of every SQLite database file.
    private static let sqliteMagic = Array("SQLite format 3\0".utf8)

    init(_ shownPath: String, store: StoreLocation) throws(CommandError) {
        self.shownPath = shownPath
        let given = UserPath.expand(shownPath)
        path =
            realpath(given, nil).map { resolved in
                defer { free(resolved) }
                return String(cString: resolved)
            } ?? given
        var status = stat()
        guard stat(path, &status) == 0 else {
            isSpecialFile = false
            return
        }
        isSpecialFile = status.st_mode & S_IFMT != S_IFREG
        if case .file(let storePath) = store,
            Self.isFile(status, among: ["", "-wal", "-shm", "-journal"].map { storePath + $0 })
        {
            throw .invalid("cannot export to \(shownPath): it is the store itself (\(storePath)); name another file")
        }
        if !isSpecialFile, Self.startsWithSQLiteMagic(path) {
            throw .invalid("cannot export to \(shownPath): it is an SQLite database, which an export never writes over")
        }
        if !isSpecialFile, let database = Self.databaseOwning(path) {
            throw .invalid(
                "cannot export to \(shownPath): it belongs to the SQLite database \(database) "
                    + "(it can hold saved changes not yet in that file), which an export never writes over")
        }
    }

    /// The database whose write-ahead log, shared memory or rollback journal the file at
    /// `path` is (`X-wal`, `X-shm`, `X-journal` beside a database `X`), or nil: after a
    /// crash the log holds saved changes its database does not have yet.
    private static func databaseOwning(_ path: String) -> String? {
        for suffix in ["-wal", "-shm", "-journal"] where path.hasSuffix(suffix) {
            let database = String(path.dropLast(suffix.count))
            if startsWithSQLiteMagic(database) { return database }
        }
        return nil
    }

    /// The file to write the export to, put in place by its `commit`.
    func open() throws(CommandError) -> WholeFileWriter {
        try WholeFileWriter(path: path, shownAs: shownPath, inPlace: isSpecialFile)
    }

    /// True when `status` is one of the files at `paths` (the same device and inode).
    private static func isFile(_ status: stat, among paths: [String]) -> Bool {
        paths.contains { path in
            var other = stat()
            return stat(path, &other) == 0 && other.st_dev == status.st_dev && other.st_ino == status.st_ino
        }
    }

    private static func startsWithSQLiteMagic(_ path: String) -> Bool {
        let descriptor = Glibc.open(path, O_RDONLY | O_CLOEXEC | O_NONBLOCK)
        guard descriptor >= 0 else { return false }
        defer { close(descriptor) }
        var header = [UInt8](repeating: 0, count: sqliteMagic.count)
        let count = header.withUnsafeMutableBytes { pread(descriptor, $0.baseAddress, $0.count, 0) }
        return count == sqliteMagic.count && header == sqliteMagic
    }
}
