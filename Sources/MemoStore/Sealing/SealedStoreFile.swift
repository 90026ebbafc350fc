import CSQLite
import Glibc
import MemoModel

/// A sealed store's file while a process holds it: its lock, and the key that seals it.
///
/// The store lives in memory (`Database.load`); the file only ever holds a whole sealed
/// image. A save writes the new one beside the file, syncs it, renames it over the file and
/// syncs the folder, so a kill at any moment leaves the old store or the new, whole. One
/// process at a time holds the file (an exclusive `flock`, taken on the new file before it
/// takes the old one's place); another waits as long as SQLite waits for a lock, then says
/// the store is busy.
final class SealedStoreFile {
    let path: String
    /// The file at `path`, open and locked.
    private var descriptor: Int32
    private var key: SecretBytes
    /// The key's salt and limits, written again with each save.
    private var header: SealedFileHeader

    private init(path: String, descriptor: Int32, key: SecretBytes, header: SealedFileHeader) {
        self.path = path
        self.descriptor = descriptor
        self.key = key
        self.header = header
    }

    deinit {
        close(descriptor)
    }

    /// Whether the file at `path` begins as a sealed store does.
    static func isSealed(_ path: String) -> Bool {
        let descriptor = Glibc.open(path, O_RDONLY | O_CLOEXEC)
        guard descriptor >= 0 else { return false }
        defer { close(descriptor) }
        var magic = [UInt8](repeating: 0, count: SealedFileHeader.magic.count)
        return pread(descriptor, &magic, magic.count, 0) == magic.count && SealedFileHeader.hasMagic(magic)
    }

    /// Takes the sealed store at `path`, asks its passphrase (`PassphraseSource`) and opens
    /// it: the file held, and its image in memory from `sqlite3_malloc64`.
    static func open(
        _ path: String
    ) throws(StoreError) -> (file: SealedStoreFile, image: UnsafeMutableRawPointer, count: Int) {
        let target = fileBehind(path)
        let descriptor = try lock(target)
        removeLeftSaves(of: target)
        // A header memo cannot open, or a file of another length than it says, is refused
        // before a passphrase is asked and a key derived for nothing.
        var bytes = [UInt8](repeating: 0, count: SealedFileHeader.count)
        var status = stat()
        guard pread(descriptor, &bytes, bytes.count, 0) == bytes.count,
            let header = bytes.withUnsafeBytes({ SealedFileHeader($0) }),
            fstat(descriptor, &status) == 0, UInt64(status.st_size) == header.fileCount
        else {
            close(descriptor)
            throw .cannotOpen(path: path, reason: Self.refusal)
        }
        var attempt = 1
        while attempt <= Self.attempts,
            let passphrase = try PassphraseSource.passphrase(.open(path: path, attempt: attempt))
        {
            attempt += 1
            guard let key = SealedStream.key(for: passphrase, header) else {
                close(descriptor)
                throw .cannotOpen(path: path, reason: "not enough memory to derive the store's key")
            }
            if let opened = SealedStream.read(from: descriptor, header: header, headerBytes: bytes, key: key) {
                let file = SealedStoreFile(path: target, descriptor: descriptor, key: key, header: header)
                return (file, opened.image, opened.count)
            }
        }
        close(descriptor)
        throw .cannotOpen(path: path, reason: Self.refusal)
    }

    /// The file `path` names, through any symbolic links: a save renames a new file over it,
    /// which must replace the store, not a link to it (the store would stay where it was,
    /// and plain, after `encrypt`). `path` itself when it cannot be resolved.
    private static func fileBehind(_ path: String) -> String {
        guard let resolved = realpath(path, nil) else { return path }
        defer { free(resolved) }
        return String(cString: resolved)
    }

    /// How many passphrases opening tries at most (a source may stop sooner: a command is asked once).
    static let attempts = 3

    /// What a wrong passphrase and a damaged file both get: telling them apart would tell
    /// an attacker which bytes they changed.
    static let refusal = "wrong passphrase, or the file is damaged"

    /// Writes `image`, sealed with this file's key, in the file's place.
    func save(_ image: UnsafeRawBufferPointer) throws(StoreError) {
        try Self.replace(path, holding: descriptor, with: image, header: header, key: key) { self.descriptor = $0 }
    }

    /// Seals `image`, the plain store at `path`, with a key from `passphrase` (a new salt)
    /// in the file's place; returns the sealed file, held.
    static func seal(
        _ image: UnsafeRawBufferPointer, at path: String, passphrase: SecretBytes
    ) throws(StoreError)
        -> SealedStoreFile
    {
        let path = fileBehind(path)
        let (header, key) = try newKey(from: passphrase, for: image, at: path)
        var sealed: Int32 = -1
        do {
            try replace(path, holding: -1, with: image, header: header, key: key) { sealed = $0 }
        } catch {
            if sealed >= 0 { close(sealed) }
            throw error
        }
        return SealedStoreFile(path: path, descriptor: sealed, key: key, header: header)
    }

    /// Seals `image` again with a key from `passphrase` (a new salt), in the file's place.
    func rekey(_ image: UnsafeRawBufferPointer, passphrase: SecretBytes) throws(StoreError) {
        let (header, key) = try Self.newKey(from: passphrase, for: image, at: path)
        try Self.replace(path, holding: descriptor, with: image, header: header, key: key) {
            self.descriptor = $0
            (self.header, self.key) = (header, key)
        }
    }

    private static func newKey(
        from passphrase: SecretBytes, for image: UnsafeRawBufferPointer, at path: String
    )
        throws(StoreError) -> (SealedFileHeader, SecretBytes)
    {
        let header = SealedFileHeader(plaintextCount: image.count)
        guard let key = SealedStream.key(for: passphrase, header) else {
            throw .cannotOpen(path: path, reason: "not enough memory to derive the store's key")
        }
        return (header, key)
    }

    /// Writes a plain store file with `image` in place of this sealed one (`decrypt`).
    func unseal(_ image: UnsafeRawBufferPointer) throws(StoreError) {
        try Self.replace(path, holding: descriptor, with: image, header: nil, key: nil) { self.descriptor = $0 }
    }

    /// The open and locked descriptor of the file at `path`, or the busy error after ten
    /// seconds of another process holding it. A file renamed over the path while this one
    /// waited (another process's save) is given up for the new one.
    private static func lock(_ path: String) throws(StoreError) -> Int32 {
        let patience = Int(StoreOpening.busyTimeoutMilliseconds) / pollMilliseconds
        for _ in 0...patience {
            let descriptor = Glibc.open(path, O_RDONLY | O_CLOEXEC)
            guard descriptor >= 0 else {
                throw .cannotOpen(path: path, reason: String(cString: strerror(errno)))
            }
            if flock(descriptor, LOCK_EX | LOCK_NB) == 0 {
                var held = stat(), named = stat()
                if fstat(descriptor, &held) == 0, stat(path, &named) == 0, held.st_ino == named.st_ino,
                    held.st_dev == named.st_dev
                {
                    return descriptor
                }
            }
            close(descriptor)
            usleep(useconds_t(pollMilliseconds * 1000))
        }
        throw .cannotOpen(path: path, reason: "the store is busy: another memo process has it open; try again")
    }

    private static let pollMilliseconds = 20

    /// The name of a save in progress: the store's own name, then this, then six letters.
    private static let saveInfix = ".sealing-"

    /// Removes the saves a killed process left beside the store (the lock is held, so no
    /// save is in progress): each holds a sealed image, or part of one, and nothing else.
    private static func removeLeftSaves(of path: String) {
        let slash = path.lastIndex(of: "/")
        let folder = slash.map { String(path[..<$0]) } ?? "."
        let prefix = (slash.map { String(path[path.index(after: $0)...]) } ?? path) + saveInfix
        guard let directory = opendir(folder.isEmpty ? "/" : folder) else { return }
        defer { closedir(directory) }
        while let entry = readdir(directory) {
            let name = withUnsafeBytes(of: entry.pointee.d_name) {
                String(cString: $0.bindMemory(to: CChar.self).baseAddress!)
            }
            if name.hasPrefix(prefix), name.count == prefix.count + 6 { unlink(folder + "/" + name) }
        }
    }

    /// Writes `image` (sealed with `key` under `header`, or as it is without them) to a new
    /// file beside `path`, locks it, syncs it and renames it over `path`; then lets go of
    /// `descriptor`, the old file, hands the new file's descriptor to `placed` (the store's
    /// file from then on) and syncs the folder. A failure before the rename removes the new
    /// file and leaves the old one, held; after it, the new file is held, and a folder that
    /// could not be synced is still a failure: the rename may not last.
    private static func replace(
        _ path: String, holding descriptor: Int32, with image: UnsafeRawBufferPointer,
        header: SealedFileHeader?, key: SecretBytes?, placed: (Int32) -> Void
    ) throws(StoreError) {
        var template = Array((path + saveInfix + "XXXXXX").utf8CString)
        let new = mkstemp(&template)
        guard new >= 0 else { throw saveFailure(SealingFailure(errno: errno)) }
        _ = fcntl(new, F_SETFD, FD_CLOEXEC)
        let newPath = String(decoding: template.dropLast().map { UInt8(bitPattern: $0) }, as: UTF8.self)
        do throws(SealingFailure) {
            var old = stat()
            if fstat(descriptor, &old) == 0 { fchmod(new, old.st_mode & 0o777) }
            _ = flock(new, LOCK_EX | LOCK_NB)
            if let header, let key {
                try SealedStream.write(image, header: header, key: key, to: new)
            } else {
                if let failure = SealedStream.writeAll(image, to: new) { throw SealingFailure(errno: failure) }
            }
            guard fsync(new) == 0, rename(newPath, path) == 0 else { throw SealingFailure(errno: errno) }
        } catch {
            unlink(newPath)
            close(new)
            throw saveFailure(error)
        }
        if descriptor >= 0 { close(descriptor) }
        placed(new)
        if let failure = syncFolder(of: path) { throw saveFailure(failure) }
    }

    /// A save that failed, as the store failure SQLite's own would be for the same reason
    /// (a full disk, a read-only or unwritable folder, an I/O error): one line, exit status 3.
    private static func saveFailure(_ failure: SealingFailure) -> StoreError {
        let code =
            switch failure.errno {
            case ENOSPC, EDQUOT: SQLITE_FULL
            case EROFS: SQLITE_READONLY
            case EACCES, EPERM: SQLITE_PERM
            default: SQLITE_IOERR
            }
        return .sqlite(SQLiteError(code: code, message: "the store could not be saved: \(failure.reason)"))
    }

    /// Syncs the folder holding `path`, so the rename that put a new file there lasts; the
    /// failure, if the sync failed. As SQLite does, a folder that cannot be opened, or whose
    /// file system cannot sync folders (EINVAL), goes unsynced.
    private static func syncFolder(of path: String) -> SealingFailure? {
        let folder = path.lastIndex(of: "/").map { String(path[..<$0]) } ?? "."
        let descriptor = Glibc.open(folder.isEmpty ? "/" : folder, O_RDONLY | O_DIRECTORY | O_CLOEXEC)
        guard descriptor >= 0 else { return nil }
        defer { close(descriptor) }
        guard fsync(descriptor) != 0, errno != EINVAL else { return nil }
        return SealingFailure(errno: errno)
    }
}
