import FoundationEssentials
import Glibc
import MemoModel
import MemoNotebook

/// The memos' own files for editors (docs/REFERENCE.md, Memos' own files): go to definition on
/// `#12` opens `12.md` in the store's own folder under `$XDG_CACHE_HOME/memo/open` (else
/// `~/.cache/memo/open`), which holds the memo's text as read here (`Notebook.readableText`: each
/// `#ID` link by its memo's id in this store); saving it edits the memo. Beside
/// each file, a hidden `.12.base` records the memo's version the file was written from, so any
/// server on the store (a second one, a restarted one) refuses a save over a memo that changed
/// meanwhile.
final class MemoFiles {
    /// The version of a memo a file was written from: the base file records it.
    typealias Base = MemoFileBase

    /// The store's own folder, in normal form (no `//`, `.`, `..` or trailing `/`).
    let folder: String
    /// The files this server wrote or saved: the ones it keeps in step with the store.
    private var written: Set<Int64> = []
    /// The files in the folder when this server started, which earlier servers wrote.
    private let foundAtStart: Set<Int64>

    init(folder: String) {
        self.folder = CachePath.normalized(folder)
        foundAtStart = Self.memoFileIDs(in: self.folder)
    }

    /// The files of the store at `location`, in its own folder under `root`.
    convenience init(root: String, store location: StoreLocation) {
        self.init(folder: root + "/" + CachePath.folderName(of: location))
    }

    /// `$XDG_CACHE_HOME/memo/open` (an absolute path only), else `~/.cache/memo/open`: the
    /// folder that holds each store's folder.
    static func folder(environment: Environment) -> String? {
        if let cache = environment["XDG_CACHE_HOME"], cache.hasPrefix("/") {
            return CachePath.normalized(cache + "/memo/open")
        }
        guard let home = environment["HOME"], !home.isEmpty else { return nil }
        return CachePath.normalized(home + "/.cache/memo/open")
    }

    /// The ids of the files written by this server.
    var ids: [Int64] { written.sorted() }

    /// The files earlier servers left that this one has not written since: an editor that
    /// held one open may reconnect with its text, so they follow the store by their text only
    /// (`followText`).
    var leftByEarlierServers: [Int64] { foundAtStart.subtracting(written).sorted() }

    /// The ids of the memo files in `folder` (none when it does not exist yet).
    private static func memoFileIDs(in folder: String) -> Set<Int64> {
        guard let entries = opendir(folder) else { return [] }
        defer { closedir(entries) }
        var ids: Set<Int64> = []
        while let entry = readdir(entries) {
            let name = withUnsafeBytes(of: entry.pointee.d_name) { bytes in
                String(decoding: bytes.prefix { $0 != 0 }, as: UTF8.self)
            }
            if let id = idOfFileNamed(name) { ids.insert(id) }
        }
        return ids
    }

    var isEmpty: Bool { written.isEmpty }

    func path(of id: Int64) -> String {
        folder + "/\(id).md"
    }

    private func basePath(of id: Int64) -> String {
        folder + "/.\(id).base"
    }

    func uri(of id: Int64) -> String {
        URL(fileURLWithPath: path(of: id)).absoluteString
    }

    /// The memo whose file `uri` names, or nil for any other document. Folders compare as
    /// resolved paths, so a symlinked cache folder names the same files.
    func id(ofURI uri: String) -> Int64? {
        guard let (folder, id) = Self.memoFile(uri), CachePath.resolved(folder) == CachePath.resolved(self.folder)
        else { return nil }
        return id
    }

    /// The folder of another store that holds the memo file `uri` names, or nil when `uri`
    /// is not such a file: a save of it does not belong to this store.
    func otherStoresFolder(ofURI uri: String) -> String? {
        guard let (folder, _) = Self.memoFile(uri), CachePath.resolved(folder) != CachePath.resolved(self.folder),
            CachePath.resolved(CachePath.parent(of: folder)) == CachePath.resolved(CachePath.parent(of: self.folder))
        else { return nil }
        return folder
    }

    /// The folder and id of a file named like a memo's: `12.md`, the id as memo writes it
    /// (`012.md` or `+12.md` is another file a user made there).
    private static func memoFile(_ uri: String) -> (folder: String, id: Int64)? {
        guard let url = URL(string: uri), url.isFileURL else { return nil }
        let path = CachePath.normalized(url.path)
        let name = path[path.index(after: path.lastIndex(of: "/") ?? path.startIndex)...]
        guard let id = idOfFileNamed(name) else { return nil }
        return (CachePath.parent(of: path), id)
    }

    /// The memo a file named `name` is, by the name memo gives it (`12.md`).
    private static func idOfFileNamed(_ name: some StringProtocol) -> Int64? {
        guard name.hasSuffix(".md"), let id = Int64(name.dropLast(3)), id > 0, "\(id).md" == name else { return nil }
        return id
    }

    /// The version file `id` was written from, as its base file records it; nil when unknown.
    func base(of id: Int64) -> Base? {
        PrivateFile.read(basePath(of: id)).flatMap(Base.init(fileText:))
    }

    /// Writes the memo's text to its file (`text`: as a person here reads it, its links by
    /// their ids here; as stored when not given), then its base (folder 0700, files 0600,
    /// each replaced atomically); the file's URI. In that order, a crash between the two
    /// leaves a base older than the file, which refuses a save it could take, never the
    /// reverse. A file already written from this version is left alone: links and symbols
    /// ask for files on every request.
    @discardableResult
    func write(_ memo: Memo, text: String? = nil) throws -> String {
        let path = path(of: memo.id)
        written.insert(memo.id)
        if base(of: memo.id) == Base(memo), access(path, F_OK) == 0 { return uri(of: memo.id) }
        try PrivateFile.replace(path, with: text ?? memo.content)
        try remember(memo)
        return uri(of: memo.id)
    }

    /// Puts `text`, `memo`'s text as read here, in the file of a memo that changed since its
    /// file was written, keeping the base: an editor that still holds the file's older text
    /// (reconnecting to a new server) has that text based on the older version, so its save
    /// stays refused, while an editor that opens the file as it now is holds the current text,
    /// which is based on the current version (`ReferenceService.noteEditorText`).
    func followText(of memo: Memo, text: String) throws {
        let path = path(of: memo.id)
        guard base(of: memo.id) != Base(memo), PrivateFile.read(path) != text else { return }
        try PrivateFile.replace(path, with: text)
    }

    /// Takes `memo` as the base of its file, after a save wrote it to the store.
    func remember(_ memo: Memo) throws {
        try note(Base(memo), of: memo.id)
    }

    /// Records `base` as the version file `id`'s text came from (nil: none known, no base
    /// file), after an editor wrote its text there.
    func note(_ base: Base?, of id: Int64) throws {
        written.insert(id)
        guard let base else {
            unlink(basePath(of: id))
            return
        }
        try PrivateFile.replace(basePath(of: id), with: base.fileText)
    }

    /// The text of memo file `uri` as saved on disk.
    func savedText(ofURI uri: String) -> String? {
        URL(string: uri).flatMap { PrivateFile.read($0.path) }
    }

    /// Removes the file of a memo that is gone.
    func remove(_ id: Int64) {
        unlink(path(of: id))
        unlink(basePath(of: id))
        written.remove(id)
    }

    /// Removes every file this server wrote, and the folder when nothing else is in it: an
    /// in-memory store's files go with the store.
    func removeAll() {
        for id in ids { remove(id) }
        rmdir(folder)
    }
}

/// A base file's text: a header, then the uuid, the update date and the hash.
extension MemoFileBase {
    private static let header = "memo file base 1"

    var fileText: String {
        [Self.header, uuid, updateDate.map { String($0.millisecondsSince1970) } ?? "-", contentHash].joined(
            separator: "\n") + "\n"
    }

    /// Reads `fileText`; nil for anything else.
    init?(fileText: String) {
        let lines = fileText.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
        guard lines.count == 5, lines[0] == Self.header, lines[4].isEmpty else { return nil }
        let updateDate: Timestamp?
        if lines[2] == "-" {
            updateDate = nil
        } else if let milliseconds = Int64(lines[2]) {
            updateDate = Timestamp(millisecondsSince1970: milliseconds)
        } else {
            return nil
        }
        self.init(uuid: lines[1], updateDate: updateDate, contentHash: lines[3])
    }
}
