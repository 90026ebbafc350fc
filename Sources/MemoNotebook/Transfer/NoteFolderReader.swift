import Glibc
import MemoStore

/// A folder of Markdown notes as zk, nb and Obsidian keep them: one memo per `*.md` file,
/// found recursively in name order, or the one note a file with front matter is. Hidden
/// files and folders (`.zk`, `.obsidian`, `.git`, nb's `.index`) are tool state, passed over;
/// other files are left out and counted; a link to a folder is not followed (no loop can
/// hold the import). Only one folder's names and one note's text are held at a time.
///
/// A note's text is what follows its front matter (`FrontMatter`); its insert date is the
/// front matter's `date:`/`created:`, else the file's modification time; its update date is
/// that modification time, so a note changed since the last import updates its memo (and
/// moves it, when its `date:` changed). Its uuid is derived from its `id:`, else from its
/// path under the folder imported (its name, for a note imported alone): importing the
/// folder again finds the memos the first import made, and the same note reached through
/// another folder repeats its memo (`ImportRecord.isNamedByItsPath`).
struct NoteFolderReader: RecordReader {
    /// The folder (or note) as given, which note paths in messages start with.
    let root: String
    let displayTime: DisplayTime
    /// Notes read so far.
    private(set) var notes = 0
    /// Files that are not notes, in the order met (the first few, for the summary).
    private(set) var leftOut: [String] = []
    private(set) var leftOutCount = 0
    /// Folders still to list, relative to `root`, the next one last.
    private var folders: [String]
    /// Notes of the folder being read, relative to `root`, the next one last.
    private var files: [String] = []
    private let rootIsNote: Bool

    /// How many left-out names the summary keeps.
    static let namesKept = 3
    /// A note larger than a memo (1 MiB), front matter and all, is refused before it is
    /// read: one limit, the memo's, in one message.
    static let maximumBytes = MemoContent.maximumBytes

    init(root: String, isFolder: Bool, displayTime: DisplayTime) {
        self.root = root
        self.displayTime = displayTime
        rootIsNote = !isFolder
        folders = isFolder ? [""] : []
        if !isFolder { files = [""] }
    }

    var progress: Double? { nil }

    mutating func next() throws(LocatedError) -> ImportRecord? {
        while files.isEmpty {
            guard let folder = folders.popLast() else { return nil }
            try list(folder)
        }
        let relative = files.removeLast()
        notes += 1
        return try note(at: relative)
    }

    /// The path of an entry relative to `root`, as messages show it.
    private func path(_ relative: String) -> String {
        relative.isEmpty ? root : root.hasSuffix("/") ? root + relative : root + "/" + relative
    }

    /// Queues the notes and subfolders of `folder`, in name order.
    private mutating func list(_ folder: String) throws(LocatedError) {
        let shown = path(folder)
        guard let directory = opendir(shown) else { throw Self.failure(shown, errno) }
        defer { closedir(directory) }
        var names: [String] = []
        while let entry = readdir(directory) {
            let name = withUnsafeBytes(of: entry.pointee.d_name) { raw in
                String(decoding: raw.prefix { $0 != 0 }, as: UTF8.self)
            }
            if !name.hasPrefix(".") { names.append(name) }
        }
        var subfolders: [String] = []
        for name in names.sorted() {
            let relative = folder.isEmpty ? name : folder + "/" + name
            var status = stat()
            guard lstat(path(relative), &status) == 0 else { throw Self.failure(path(relative), errno) }
            let kind = status.st_mode & S_IFMT
            // A link is what it leads to: a note is read, a folder is not followed (named as
            // one); a link that leads nowhere, or to no file (a device), is left out.
            let target = kind == S_IFLNK && stat(path(relative), &status) == 0 ? status.st_mode & S_IFMT : nil
            if kind == S_IFDIR {
                subfolders.append(relative)
            } else if kind == S_IFREG || target == S_IFREG, name.lowercased().hasSuffix(".md") {
                files.append(relative)
            } else {
                leftOutCount += 1
                if leftOut.count < Self.namesKept { leftOut.append(relative + (target == S_IFDIR ? "/" : "")) }
            }
        }
        files.reverse()
        folders += subfolders.reversed()
    }

    /// The record of the note at `relative`.
    private func note(at relative: String) throws(LocatedError) -> ImportRecord {
        let shown = path(relative)
        let descriptor = open(shown, O_RDONLY | O_CLOEXEC | O_NONBLOCK)
        guard descriptor >= 0 else { throw Self.failure(shown, errno) }
        defer { close(descriptor) }
        var status = stat()
        guard fstat(descriptor, &status) == 0 else { throw Self.failure(shown, errno) }
        guard status.st_size <= Self.maximumBytes else {
            throw LocatedError(
                file: shown, line: 0,
                underlying: CommandError.invalid(
                    "the note is \(status.st_size) bytes; the limit is \(Self.maximumBytes) (1 MiB)"
                ))
        }
        let text: String
        do {
            text = try TextFile.read(descriptor: descriptor, name: "the note")
        } catch {
            throw LocatedError(file: shown, line: 0, underlying: error)
        }
        let modified = Timestamp(
            millisecondsSince1970: Int64(status.st_mtim.tv_sec) * 1000 + Int64(status.st_mtim.tv_nsec) / 1_000_000)
        let (matter, body) = FrontMatter.split(text)
        var insertDate = modified
        if let date = matter.date {
            guard let instant = SourceDate.instant(date, in: displayTime) else {
                throw LocatedError(
                    file: shown, line: 0,
                    underlying: CommandError.invalid(
                        "invalid front matter date '\(date)': use YYYY-MM-DD, YYYY-MM-DD HH:MM[:SS] "
                            + "or an ISO 8601 instant such as 2024-03-01T09:30:00+01:00"))
            }
            insertDate = instant
        }
        let name = rootIsNote ? String(root.split(separator: "/").last ?? "") : relative
        var record = ImportRecord(
            content: body,
            uuid: StableUUID.make(from: matter.id.map { "note-id:\($0)" } ?? "note:\(name)"),
            insertDate: insertDate, updateDate: modified < insertDate ? nil : modified, tags: matter.tags, line: 0)
        record.file = shown
        record.namesItsSource = true
        record.isDatedByItsFile = matter.date == nil
        record.isNamedByItsPath = matter.id == nil
        return record
    }

    private static func failure(_ path: String, _ code: Int32) -> LocatedError {
        LocatedError(
            file: path, line: 0, underlying: CommandError.invalid("cannot read: \(String(cString: strerror(code)))"))
    }
}
