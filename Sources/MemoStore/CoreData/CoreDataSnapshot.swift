import CSQLite
import FoundationEssentials
import Glibc

/// A consistent private copy of a Core Data store that its app may be writing: the store
/// file and its `-wal`, copied without ever opening (or writing) the originals.
///
/// Copied while the app writes, the two files may come from different moments. The copy
/// is consistent when the WAL's header (its salts and checkpoint number) is the same before
/// the store file is copied and after the WAL is: the WAL was not restarted in between, so
/// every page a checkpoint wrote into the store file meanwhile is also in the copied WAL,
/// which overrides it (a frame half-written at the end fails its checksum and is ignored).
/// A copy that changed under us or fails `quick_check` is taken again; one that fails while
/// the source stood still is the source's damage, and says so. An app that checkpoints so
/// often that copies keep tearing has its store open, so its `-shm` exists: then SQLite
/// itself reads the live files, read-only, in one read transaction (`VACUUM INTO` the
/// copy), which never writes the store or its WAL and creates no file beside them.
enum CoreDataSnapshot {
    /// How many times a copy torn by a writer is taken again before giving up.
    static let attempts = 40
    /// After this many torn copies of a store in use, SQLite reads it instead.
    static let tornCopiesBeforeReadingLive = 4

    /// Copies `source` (and its WAL) to `copy` and opens the copy, consistent.
    static func take(of source: String, to copy: String) throws -> Database {
        var lastProblem = ""
        for attempt in 1...attempts {
            if attempt > 1 { usleep(UInt32(min(attempt, 10)) * 10_000) }
            if attempt > tornCopiesBeforeReadingLive, FileManager.default.fileExists(atPath: source + "-shm"),
                let database = try? readLive(source, into: copy)
            {
                return database
            }
            let before = SourceState(path: source)
            for suffix in ["", "-wal"] { unlink(copy + suffix) }
            try copyWhole(source, to: copy)
            if FileManager.default.fileExists(atPath: source + "-wal") {
                try copyWhole(source + "-wal", to: copy + "-wal")
            }
            let after = SourceState(path: source)
            guard before.walHeader == after.walHeader else {
                lastProblem = "its write-ahead log was restarted while it was copied"
                continue
            }
            let database = try Database(path: copy)
            do {
                let check = try database.prepare("PRAGMA quick_check(1)").firstRow { $0.optionalString(at: 0) } ?? nil
                if check == "ok" { return database }
                lastProblem = check ?? "quick_check gave no answer"
            } catch let error as SQLiteError where error.code == .corrupt || error.code == .notADatabase {
                // Nothing changed while it was copied: the source itself is not readable.
                if before == after, error.code == .notADatabase { throw error }
                lastProblem = error.explanation
            }
            if before == after { break }
        }
        throw StoreError.cannotOpen(
            path: source, reason: "the Core Data store is damaged or could not be copied whole (\(lastProblem))")
    }

    /// Copies the file at `source` to a new file `copy`, reading until the end it has then.
    /// Not `FileManager.copyItem`: it copies the size the file had when it started, and spins
    /// forever when the app shrinks the file meanwhile (a checkpoint truncating its WAL).
    private static func copyWhole(_ source: String, to copy: String) throws {
        let input = open(source, O_RDONLY | O_CLOEXEC)
        guard input >= 0 else { throw StoreError.cannotOpen(path: source, reason: String(cString: strerror(errno))) }
        defer { close(input) }
        let output = open(copy, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0o600)
        guard output >= 0 else { throw StoreError.cannotOpen(path: copy, reason: String(cString: strerror(errno))) }
        defer { close(output) }
        var buffer = [UInt8](repeating: 0, count: 1 << 16)
        while true {
            let count = buffer.withUnsafeMutableBytes { read(input, $0.baseAddress, $0.count) }
            if count < 0, errno == EINTR { continue }
            guard count > 0 else {
                if count < 0 { throw StoreError.cannotOpen(path: source, reason: String(cString: strerror(errno))) }
                return
            }
            var written = 0
            while written < count {
                let result = buffer.withUnsafeBytes { write(output, $0.baseAddress! + written, count - written) }
                if result < 0, errno == EINTR { continue }
                guard result > 0 else {
                    throw StoreError.cannotOpen(path: copy, reason: String(cString: strerror(errno)))
                }
                written += result
            }
        }
    }

    /// Copies what the live store holds at one moment, through SQLite, opened read-only.
    private static func readLive(_ source: String, into copy: String) throws -> Database {
        for suffix in ["", "-wal"] { unlink(copy + suffix) }
        let uri =
            "file:"
            + source.map { "%?#".contains($0) ? "%" + String($0.asciiValue ?? 0, radix: 16) : String($0) }.joined()
        let live = try Database(path: uri + "?mode=ro", flags: SQLITE_OPEN_READONLY | SQLITE_OPEN_URI)
        try live.prepare("VACUUM INTO ?1").run([.text(copy)])
        return try Database(path: copy)
    }

    /// What tells whether a store and its WAL changed: sizes, times, and the WAL's header.
    private struct SourceState: Equatable {
        var store: [Int]
        var wal: [Int]
        var walHeader: [UInt8]?

        init(path: String) {
            store = Self.stamp(path)
            wal = Self.stamp(path + "-wal")
            walHeader = Self.header(path + "-wal")
        }

        private static func stamp(_ path: String) -> [Int] {
            var status = stat()
            guard stat(path, &status) == 0 else { return [] }
            return [Int(status.st_size), status.st_mtim.tv_sec, status.st_mtim.tv_nsec, Int(status.st_ino)]
        }

        /// The WAL header's first 32 bytes (magic, version, page size, checkpoint number,
        /// salts, checksum), or nil when there is no WAL or it is empty.
        private static func header(_ path: String) -> [UInt8]? {
            let descriptor = open(path, O_RDONLY | O_CLOEXEC)
            guard descriptor >= 0 else { return nil }
            defer { close(descriptor) }
            var bytes = [UInt8](repeating: 0, count: 32)
            let count = bytes.withUnsafeMutableBytes { pread(descriptor, $0.baseAddress, $0.count, 0) }
            return count == 32 ? bytes : nil
        }
    }
}
