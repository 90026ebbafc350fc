import Glibc
import MemoStore

/// Where memo writes the temporary files that hold memo text: the editor's file, a bulk
/// edit's buffer, piped text kept after a failed command, the picker's previews.
package enum TemporaryTextPlace: Equatable, Sendable {
    /// `$TMPDIR` (an absolute path only), else `/tmp`: a plain store's text is on the disk anyway.
    case temporaryFolder
    /// A `PrivateScratchFolder`, in memory: an encrypted store's text never reaches the disk.
    case privateScratch

    /// The folder of `.temporaryFolder`.
    static func temporaryFolder(environment: Environment) -> String {
        environment["TMPDIR"].flatMap { $0.hasPrefix("/") ? $0 : nil } ?? "/tmp"
    }
}

/// A folder only its owner may enter (0700), `memo-<pid>-XXXXXX` under `$XDG_RUNTIME_DIR`
/// (when it is an absolute path to an existing folder), else under `/dev/shm`: both are in
/// memory, never `$TMPDIR`, `/tmp` or the store's folder. It holds an encrypted store's
/// temporary files and is removed with them after use; one left by a memo that was killed
/// (its pid no longer alive) is removed by the next memo that makes one or opens an encrypted
/// store (`sweep`).
package struct PrivateScratchFolder {
    let path: String
    /// The folder that holds it: `$XDG_RUNTIME_DIR` or `/dev/shm`.
    private let base: String

    /// Makes a new folder, first removing those killed memos left; `kind` names its use in
    /// errors ("the editor").
    init(environment: Environment, for kind: String) throws {
        base = Self.base(environment: environment)
        Self.sweep(base)
        path = try Self.makeFolder(in: base, named: "memo-\(getpid())-", for: kind)
    }

    /// Makes a new folder only its owner may enter, `base/prefixXXXXXX`; its path.
    static func makeFolder(in base: String, named prefix: String, for kind: String) throws -> String {
        var template = Array((base + "/" + prefix + "XXXXXX").utf8CString)
        // mkdtemp creates the folder with mode 0700.
        let made = template.withUnsafeMutableBufferPointer { $0.baseAddress.map { mkdtemp($0) != nil } ?? false }
        guard made else {
            throw CommandError.invalid("cannot create a private folder for the \(kind) in \(base): \(Errno(errno))")
        }
        return String(decoding: template.dropLast().map { UInt8(bitPattern: $0) }, as: UTF8.self)
    }

    /// Removes the folder and every file in it (an editor may have left a swap or backup file).
    func remove() {
        Self.removeFolder(path)
    }

    /// Keeps the folder after this process ends, under a name `sweep` passes over
    /// (`memo-kept-<pid>-XXXXXX`): the text a failed command could not use. Its new path.
    func keep() throws -> String {
        let kept = base + "/memo-kept-" + path.dropFirst((base + "/memo-").count)
        guard rename(path, kept) == 0 else { throw CommandError.invalid("cannot keep \(path): \(Errno(errno))") }
        return kept
    }

    /// Removes the folders of memos that are no longer alive, for a session on an encrypted store.
    package static func sweep(environment: Environment) {
        sweep(base(environment: environment))
    }

    /// `$XDG_RUNTIME_DIR` when it is an absolute path to an existing folder, else `/dev/shm`.
    static func base(environment: Environment) -> String {
        var status = stat()
        if let runtime = environment["XDG_RUNTIME_DIR"], runtime.hasPrefix("/"), stat(runtime, &status) == 0,
            status.st_mode & S_IFMT == S_IFDIR
        {
            return runtime
        }
        return "/dev/shm"
    }

    /// Removes each `memo-<pid>-XXXXXX` folder in `base` of this user whose process is gone.
    private static func sweep(_ base: String) {
        guard let entries = opendir(base) else { return }
        var left: [String] = []
        while let entry = readdir(entries) {
            let name = withUnsafeBytes(of: entry.pointee.d_name) {
                String(decoding: $0.prefix { $0 != 0 }, as: UTF8.self)
            }
            let parts = name.split(separator: "-", omittingEmptySubsequences: false)
            guard parts.count == 3, parts[0] == "memo", parts[2].utf8.count == 6, let pid = pid_t(parts[1]), pid > 0,
                kill(pid, 0) != 0, errno == ESRCH
            else { continue }
            left.append(base + "/" + name)
        }
        closedir(entries)
        for folder in left {
            var status = stat()
            guard lstat(folder, &status) == 0, status.st_mode & S_IFMT == S_IFDIR, status.st_uid == getuid() else {
                continue
            }
            removeFolder(folder)
        }
    }

    /// Removes `folder` and the files in it.
    static func removeFolder(_ folder: String) {
        guard let entries = opendir(folder) else { return }
        while let entry = readdir(entries) {
            let name = withUnsafeBytes(of: entry.pointee.d_name) {
                String(decoding: $0.prefix { $0 != 0 }, as: UTF8.self)
            }
            if name != ".", name != ".." { unlink(folder + "/" + name) }
        }
        closedir(entries)
        rmdir(folder)
    }
}
