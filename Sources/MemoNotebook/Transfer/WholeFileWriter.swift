import Glibc

/// Writes a file whole or not at all. On Linux the bytes go to an unnamed temporary file in
/// the destination's folder (`O_TMPFILE`), which gets a name only once it is complete and
/// synced: a crash or a kill leaves nothing behind. Replacing a file keeps its mode; a new
/// file follows the umask. Where `O_TMPFILE` is not supported (some file systems, no
/// `/proc`), a named temporary file is renamed into place and removed on failure. A device
/// or a pipe (`/dev/null`, a FIFO) cannot be replaced: it is written in place.
final class WholeFileWriter {
    /// The open file to write to.
    let descriptor: Int32
    private let path: String
    private let shownPath: String
    private let existingMode: mode_t?
    /// The named temporary file of the fallback, or nil when the file has no name yet.
    private var temporaryName: String?
    private let isInPlace: Bool
    private var isFinished = false

    /// `O_TMPFILE`, which Swift does not import (glibc defines it from `__O_TMPFILE`, the
    /// same number on every Linux architecture Swift runs on).
    private static let unnamedTemporaryFile = 0o20_000_000 | O_DIRECTORY

    /// Opens a temporary file beside `path` (or `path` itself, `inPlace`); `shownPath` names
    /// it in errors.
    init(path: String, shownAs shownPath: String, inPlace: Bool) throws(CommandError) {
        self.path = path
        self.shownPath = shownPath
        isInPlace = inPlace
        var status = stat()
        existingMode = stat(path, &status) == 0 && !inPlace ? status.st_mode & 0o7777 : nil
        var descriptor =
            if inPlace {
                open(path, O_WRONLY | O_CLOEXEC)
            } else if access("/proc/self/fd", X_OK) == 0 {
                open(Self.folder(of: path), Self.unnamedTemporaryFile | O_WRONLY | O_CLOEXEC, 0o666)
            } else {
                Int32(-1)
            }
        if descriptor < 0 && !inPlace {
            let name = path + ".memo-export-\(getpid())"
            descriptor = open(name, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0o666)
            if descriptor >= 0 { temporaryName = name }
        }
        guard descriptor >= 0 else { throw Self.failure(shownPath) }
        self.descriptor = descriptor
        if let existingMode, fchmod(descriptor, existingMode) != 0 {
            let error = Self.failure(shownPath)
            discard()
            throw error
        }
    }

    deinit {
        discard()
    }

    /// Syncs the file and puts it in place of `path`, atomically.
    func commit() throws(CommandError) {
        if isInPlace { return finish() }
        guard fsync(descriptor) == 0 else { throw Self.failure(shownPath) }
        if temporaryName == nil {
            let link = "/proc/self/fd/\(descriptor)"
            if existingMode == nil, linkat(AT_FDCWD, link, AT_FDCWD, path, AT_SYMLINK_FOLLOW) == 0 {
                return finish()
            }
            // An existing file is replaced by renaming over it: link under a temporary name first.
            let name = path + ".memo-export-\(getpid())"
            unlink(name)
            guard linkat(AT_FDCWD, link, AT_FDCWD, name, AT_SYMLINK_FOLLOW) == 0 else { throw Self.failure(shownPath) }
            temporaryName = name
        }
        guard let name = temporaryName, rename(name, path) == 0 else { throw Self.failure(shownPath) }
        temporaryName = nil
        finish()
    }

    /// Closes the file; an unfinished one vanishes.
    func discard() {
        guard !isFinished else { return }
        isFinished = true
        close(descriptor)
        if let temporaryName { unlink(temporaryName) }
    }

    /// Closes the file in place and syncs its folder, so its name survives a power cut.
    private func finish() {
        isFinished = true
        close(descriptor)
        let folder = open(Self.folder(of: path), O_RDONLY | O_DIRECTORY | O_CLOEXEC)
        if folder >= 0 {
            fsync(folder)
            close(folder)
        }
    }

    private static func folder(of path: String) -> String {
        guard let slash = path.lastIndex(of: "/") else { return "." }
        return slash == path.startIndex ? "/" : String(path[..<slash])
    }

    private static func failure(_ shownPath: String) -> CommandError {
        .invalid("cannot write \(shownPath): \(String(cString: strerror(errno)))")
    }
}
