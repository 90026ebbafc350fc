import FoundationEssentials
import Glibc
import MemoModel
import MemoNotebook

/// The memo references in the files of the workspace folders the client names
/// (docs/REFERENCE.md, References in documents), so `textDocument/references` finds files
/// that are not open. Files are listed by `WorkspaceListing` and read a few at a time while
/// the server is idle (`indexSome`), never before an answer: the first `references` reads
/// what is left. The index follows the disk through `workspace/didChangeWatchedFiles` where
/// the client reports changes; where it does not, a `references` lists the folders again and
/// re-reads each file whose size or modification time changed.
final class WorkspaceIndex {
    /// A line of a file with references on it.
    struct Line {
        let uri: String
        let number: Int
        let text: String
        let references: [MemoReference.Found]
    }

    /// What tells a file changed on disk without reading it.
    private struct Stamp: Equatable {
        let size: Int
        let seconds: Int
        let nanoseconds: Int
        let inode: UInt64

        init?(path: String) {
            var status = stat()
            guard stat(path, &status) == 0, status.st_mode & S_IFMT == S_IFREG else { return nil }
            size = Int(status.st_size)
            seconds = Int(status.st_mtim.tv_sec)
            nanoseconds = Int(status.st_mtim.tv_nsec)
            inode = UInt64(status.st_ino)
        }
    }

    private struct File {
        let stamp: Stamp
        let lines: [Line]
    }

    /// The workspace folders, as paths.
    private(set) var folders: [String] = []
    /// The folders to list again before the index is used.
    private var unlisted: [String] = []
    /// What each folder listed last time: a listing that did not change changes nothing. A
    /// file stays while a folder lists it: a git repository inside another, named as a
    /// folder of its own, lists files the outer one's git does not.
    private var listings: [String: [String]] = [:]
    /// The folders whose next listing counts even if it is the same as the last one (a file
    /// in them was forgotten, and may be back).
    private var relistings: Set<String> = []
    /// Every listed file, by path: nil until it is read.
    private var files: [String: File?] = [:]
    /// The listed files not read yet (or to read again), in the order they are read.
    private var unread: [String] = []
    /// The folder whose files are never indexed, as given and resolved: the memos' own files,
    /// which the store's link index already answers for.
    private let excluded: [String]
    /// Whether the client reports changes on disk (`workspace/didChangeWatchedFiles`): then a
    /// `references` trusts the index instead of listing and checking every file again.
    var isWatched = false
    /// Whether the client can report changed files when asked (`initialize`).
    private var clientCanWatch = false
    /// The registration of the watch sent to the client, until it answers.
    private var registration: RequestID?

    init(excluding excluded: String?) {
        self.excluded = excluded.map { [CachePath.normalized($0), CachePath.resolved($0)] } ?? []
    }

    /// The folders the client named at `initialize`: its workspace folders, else its root;
    /// and whether it can report changed files.
    func start(_ params: InitializeParams) {
        clientCanWatch = params.capabilities?.workspace?.didChangeWatchedFiles?.dynamicRegistration == true
        let uris = params.workspaceFolders?.map(\.uri) ?? params.rootUri.map { [$0] }
        let paths = uris?.compactMap(Self.path(ofURI:)) ?? params.rootPath.map { [$0] } ?? []
        for path in paths { add(folder: path) }
    }

    /// `workspace/didChangeWorkspaceFolders`.
    func change(_ params: DidChangeWorkspaceFoldersParams) {
        for removed in params.event.removed.compactMap({ Self.path(ofURI: $0.uri) }) {
            let folder = CachePath.normalized(removed)
            folders.removeAll { $0 == folder }
            let listed = listings.removeValue(forKey: folder) ?? []
            unlisted.removeAll { $0 == folder }
            let stillListed = listedFiles()
            for path in listed where !stillListed.contains(path) { files.removeValue(forKey: path) }
            unread.removeAll { files[$0] == nil }
        }
        for added in params.event.added.compactMap({ Self.path(ofURI: $0.uri) }) { add(folder: added) }
    }

    private func add(folder path: String) {
        let folder = CachePath.normalized(path)
        guard !folder.isEmpty, !folders.contains(folder) else { return }
        folders.append(folder)
        unlisted.append(folder)
    }

    /// The `client/registerCapability` params that ask the client to report changes to the
    /// files indexed (and to `.gitignore` files, which change what is); nil for a client that
    /// cannot (registering at `initialized`, as LSP allows).
    var watchRegistration: JSONValue? {
        guard clientCanWatch else { return nil }
        let patterns = ["**/*.{\(WorkspaceListing.extensions.sorted().joined(separator: ","))}", "**/.gitignore"]
        return .object([
            (
                "registrations",
                .array([
                    .object([
                        ("id", .string("memo-workspace-files")), ("method", .string("workspace/didChangeWatchedFiles")),
                        (
                            "registerOptions",
                            .object([("watchers", .array(patterns.map { .object([("globPattern", .string($0))]) }))])
                        )
                    ])
                ])
            )
        ])
    }

    /// Notes the registration request sent to the client, whose answer says whether it watches.
    func sentRegistration(_ id: RequestID) {
        registration = id
    }

    /// The client's answer to a request of the server's: the registration's, if it is that.
    func received(_ id: RequestID, succeeded: Bool) {
        guard id == registration else { return }
        registration = nil
        isWatched = succeeded
    }

    /// `workspace/didChangeWatchedFiles`: a file created or changed is read again, a deleted
    /// one forgotten, and every file under a deleted folder; a `.gitignore` changed, or a file
    /// created, has its folder listed again (git says whether it is ignored).
    func apply(_ params: DidChangeWatchedFilesParams) {
        for change in params.changes {
            guard let path = Self.path(ofURI: change.uri).map(CachePath.normalized), isInFolders(path) else { continue }
            if path.hasSuffix("/.gitignore") || (change.type == 1 && files[path] == nil) {
                relist(containing: path)
            } else if change.type == 3 {
                forget(path)
                let under = path + "/"
                for file in files.keys where file.hasPrefix(under) { forget(file) }
            } else {
                fileChanged(path)
            }
        }
    }

    /// A file was saved (`textDocument/didSave`): it is read again, when the index holds it.
    func saved(_ uri: String) {
        guard let path = Self.path(ofURI: uri).map(CachePath.normalized) else { return }
        if files[path] != nil {
            fileChanged(path)
        } else if isInFolders(path), WorkspaceListing.isIndexed(path) {
            relist(containing: path)
        }
    }

    private func fileChanged(_ path: String) {
        guard files[path] != nil else { return }
        files[path] = .some(nil)
        unread.append(path)
    }

    private func relist(containing path: String) {
        for folder in folders where Self.path(path, isIn: folder) && !unlisted.contains(folder) {
            unlisted.append(folder)
        }
    }

    /// Whether there is listing or reading left to do in the background.
    var hasWork: Bool { !unlisted.isEmpty || !unread.isEmpty }

    /// Lists a folder and reads files until `budget` is spent: a part of the index built
    /// between messages, so the first `references` has little left to do.
    func indexSome(for budget: Duration = .milliseconds(20)) {
        let start = ContinuousClock.now
        if let folder = unlisted.first {
            unlisted.removeFirst()
            list(folder)
        }
        while !unread.isEmpty, ContinuousClock.now - start < budget {
            read(unread.removeFirst())
        }
    }

    /// The lines of closed files that hold references, files in path order: `isOpen` tells
    /// the files the editor has open, whose text there is the one that counts. Brings the
    /// index up to date first.
    func lines(skipping isOpen: (String) -> Bool) -> [Line] {
        if !isWatched {
            for folder in folders where !unlisted.contains(folder) { unlisted.append(folder) }
        }
        while !unlisted.isEmpty { list(unlisted.removeFirst()) }
        if !isWatched {
            for (path, file) in files {
                if let file, file.stamp != Stamp(path: path) { fileChanged(path) }
            }
        }
        while !unread.isEmpty { read(unread.removeFirst()) }
        // The files to answer with are looked at on disk first, watched or not: a client
        // does not report every change (eglot watches no folder made after it registered),
        // and a file gone is never given. They are the few that hold references.
        let holding = files.compactMap { path, file in
            (file ?? nil).map { (path: path, file: $0) }
        }.filter { !$0.file.lines.isEmpty && !isOpen($0.path) }
        for (path, file) in holding where file.stamp != Stamp(path: path) { read(path) }
        let current: [(path: String, lines: [Line])] = holding.compactMap { path, _ in
            guard let file = files[path] ?? nil, !file.lines.isEmpty else { return nil }
            return (path, file.lines)
        }
        return current.sorted { $0.path < $1.path }.flatMap(\.lines)
    }

    /// Lists `folder` again: new files are to be read, files no longer listed are forgotten.
    private func list(_ folder: String) {
        guard folders.contains(folder) else { return }
        let listed = WorkspaceListing.files(in: folder).filter { !isExcluded($0) }
        guard listings[folder] != listed || relistings.remove(folder) != nil else { return }
        listings[folder] = listed
        let known = listedFiles()
        for path in files.keys where Self.path(path, isIn: folder) && !known.contains(path) {
            files.removeValue(forKey: path)
        }
        for path in listed where files[path] == nil {
            files[path] = .some(nil)
            unread.append(path)
        }
    }

    /// Forgets a file gone from disk; its folders' next listings count, even if they are the
    /// same as the last ones (the file may be back).
    private func forget(_ path: String) {
        files.removeValue(forKey: path)
        for folder in folders where Self.path(path, isIn: folder) { relistings.insert(folder) }
    }

    /// Every file some folder listed last time.
    private func listedFiles() -> Set<String> {
        Set(listings.values.joined())
    }

    /// Reads the file at `path` (if it is still listed), keeping its lines with references.
    /// A file over the document limit, or not UTF-8 text, is kept with none.
    private func read(_ path: String) {
        guard files[path] != nil else { return }
        guard let stamp = Stamp(path: path) else { return forget(path) }
        files[path] = File(stamp: stamp, lines: stamp.size <= TextDocument.maximumKeptBytes ? Self.lines(of: path) : [])
    }

    private static func lines(of path: String) -> [Line] {
        let descriptor = open(path, O_RDONLY | O_CLOEXEC | O_NONBLOCK)
        guard descriptor >= 0 else { return [] }
        defer { close(descriptor) }
        guard let bytes = try? TextFile.bytes(descriptor: descriptor, name: path),
            bytes.count <= TextDocument.maximumKeptBytes, Self.mayHoldReferences(bytes),
            memchr(bytes, 0, bytes.count) == nil, let text = String(validating: bytes, as: UTF8.self)
        else { return [] }
        let uri = URL(fileURLWithPath: path).absoluteString
        // Editors show a file without its byte-order mark, and count columns so.
        let document = TextDocument(
            uri: uri, languageId: "", version: nil, text: String(TextFile.withoutByteOrderMark(text)))
        return (0..<document.lineCount).compactMap { number in
            let found = document.references(onLine: number)
            guard !found.isEmpty, let text = document.line(number) else { return nil }
            return Line(uri: uri, number: number, text: text, references: found)
        }
    }

    /// Whether `bytes` hold a `#` before a digit or a `memo:`: a file without either (most of
    /// a project's) holds no reference, and is passed over without being read as lines.
    /// Searched with `memchr`, as fast as memory is read.
    private static func mayHoldReferences(_ bytes: [UInt8]) -> Bool {
        bytes.withUnsafeBytes { buffer in
            guard let base = buffer.baseAddress else { return false }
            func positions(of byte: UInt8, _ isReference: (Int) -> Bool) -> Bool {
                var offset = 0
                while offset < buffer.count, let found = memchr(base + offset, Int32(byte), buffer.count - offset) {
                    let index = base.distance(to: UnsafeRawPointer(found))
                    if isReference(index) { return true }
                    offset = index + 1
                }
                return false
            }
            return positions(of: UInt8(ascii: "#")) { index in
                index + 1 < buffer.count && (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(buffer[index + 1])
            }
                || positions(of: UInt8(ascii: ":")) { index in
                    index >= 4 && memoPrefix.indices.allSatisfy { buffer[index - 4 + $0] | 0x20 == memoPrefix[$0] }
                }
        }
    }

    private static let memoPrefix = Array("memo".utf8)

    private func isInFolders(_ path: String) -> Bool {
        folders.contains { Self.path(path, isIn: $0) }
    }

    private func isExcluded(_ path: String) -> Bool {
        excluded.contains { Self.path(path, isIn: $0) }
    }

    private static func path(_ path: String, isIn folder: String) -> Bool {
        folder == "/" ? path.hasPrefix("/") : path.hasPrefix(folder + "/")
    }

    /// The path a `file:` URI names, or nil for another scheme.
    static func path(ofURI uri: String) -> String? {
        guard let url = URL(string: uri), url.isFileURL else { return nil }
        return url.path
    }
}
