import FoundationEssentials
import Glibc
import MemoStore

/// The memos' own files for editors (SPEC §8): go to definition on `#12` opens
/// `$XDG_CACHE_HOME/memo/open/12.md` (else `~/.cache/memo/open`), which holds the memo's
/// text exactly; saving it edits the memo. Each file remembers the memo's state it was
/// written from, so a save over a memo that changed meanwhile can be refused.
final class MemoFiles {
    /// The memo as a file was written from it.
    struct Base: Equatable {
        let content: String
        let updateDate: Timestamp?

        init(_ memo: Memo) {
            content = memo.content
            updateDate = memo.updateDate
        }
    }

    let folder: String
    private var bases: [Int64: Base] = [:]

    init(folder: String) {
        self.folder = folder
    }

    /// `$XDG_CACHE_HOME/memo/open` (an absolute path only), else `~/.cache/memo/open`.
    static func folder(environment: Environment) -> String? {
        if let cache = environment["XDG_CACHE_HOME"], cache.hasPrefix("/") { return cache + "/memo/open" }
        guard let home = environment["HOME"], !home.isEmpty else { return nil }
        return home + "/.cache/memo/open"
    }

    /// The ids of the files written by this server.
    var ids: [Int64] { bases.keys.sorted() }

    var isEmpty: Bool { bases.isEmpty }

    func path(of id: Int64) -> String {
        folder + "/\(id).md"
    }

    func uri(of id: Int64) -> String {
        URL(fileURLWithPath: path(of: id)).absoluteString
    }

    /// The memo whose file `uri` names, or nil for any other document.
    func id(ofURI uri: String) -> Int64? {
        guard let url = URL(string: uri), url.isFileURL else { return nil }
        let path = url.standardizedFileURL.path
        guard path.hasPrefix(folder + "/"), path.hasSuffix(".md") else { return nil }
        return Int64(path.dropFirst(folder.count + 1).dropLast(3)).flatMap { $0 > 0 ? $0 : nil }
    }

    func base(of id: Int64) -> Base? {
        bases[id]
    }

    /// Writes the memo's text to its file (folder 0700, file 0600, replaced atomically) and
    /// remembers it as the file's base; the file's URI. A file already written from this
    /// version is left alone: links and symbols ask for files on every request.
    @discardableResult
    func write(_ memo: Memo) throws -> String {
        let path = path(of: memo.id)
        if bases[memo.id] == Base(memo), access(path, F_OK) == 0 { return uri(of: memo.id) }
        try PrivateFiles.createParentFolders(of: path)
        let temporary = path + ".\(getpid()).tmp"
        let descriptor = open(temporary, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0o600)
        guard descriptor >= 0 else { throw MemoFileError(path: path, code: errno) }
        let bytes = Array(memo.content.utf8)
        let written = bytes.withUnsafeBytes { Glibc.write(descriptor, $0.baseAddress, $0.count) }
        let failure = written == bytes.count ? nil : errno
        fchmod(descriptor, 0o600)
        close(descriptor)
        guard failure == nil, rename(temporary, path) == 0 else {
            let code = failure ?? errno
            unlink(temporary)
            throw MemoFileError(path: path, code: code)
        }
        bases[memo.id] = Base(memo)
        return uri(of: memo.id)
    }

    /// Takes `memo` as the base of its file, after a save wrote it to the store.
    func remember(_ memo: Memo) {
        bases[memo.id] = Base(memo)
    }

    /// Removes the file of a memo that is gone.
    func remove(_ id: Int64) {
        unlink(path(of: id))
        bases.removeValue(forKey: id)
    }
}

/// A memo's file could not be written.
struct MemoFileError: Error, CustomStringConvertible {
    let path: String
    let code: Int32

    var description: String { "cannot write \(path): \(String(cString: strerror(code)))" }
}
