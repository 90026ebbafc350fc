import Glibc
import MemoNotebook

/// The files of a workspace folder whose memo references the server indexes
/// (docs/REFERENCE.md, References in documents): Markdown and text files (`.md`,
/// `.markdown`, `.txt`; files without an extension are left out: in a project they are mostly
/// scripts, build files and programs). In a git work tree, git's own rules say which files are
/// ignored (`git ls-files --cached --others --exclude-standard`); in any other folder, every
/// file found by walking it, hidden files and folders left out.
enum WorkspaceListing {
    /// The file name endings indexed, in lower case.
    static let extensions: Set<String> = ["md", "markdown", "txt"]

    /// The most files a folder lists, and the most entries a walk looks at: a folder beyond
    /// that (a home folder opened as a project) is indexed in part rather than walked for minutes.
    static let maximumFiles = 20_000
    static let maximumWalkedEntries = 100_000

    /// Whether a file of this path is one the index holds.
    static func isIndexed(_ path: String) -> Bool {
        let name = path[path.index(after: path.lastIndex(of: "/") ?? path.startIndex)...]
        guard let dot = name.lastIndex(of: "."), dot != name.startIndex else { return false }
        return extensions.contains(name[name.index(after: dot)...].lowercased())
    }

    /// The paths of the files to index under `folder`, in the order git or the walk gives them.
    static func files(in folder: String) -> [String] {
        Array((gitFiles(in: folder) ?? walk(folder)).filter(isIndexed).prefix(maximumFiles))
    }

    /// What git lists in the work tree at `folder` (tracked files and untracked ones not
    /// ignored), or nil when it is not a git work tree or git cannot be run.
    private static func gitFiles(in folder: String) -> [String]? {
        var ends: [Int32] = [0, 0]
        guard pipe(&ends) == 0 else { return nil }
        for end in ends { _ = fcntl(end, F_SETFD, FD_CLOEXEC) }
        let nothing = open("/dev/null", O_RDWR | O_CLOEXEC)
        defer { if nothing >= 0 { close(nothing) } }
        let started = ShellCommand.spawn(
            "git",
            arguments: ["git", "-C", folder, "ls-files", "--cached", "--others", "--exclude-standard", "-z"],
            standardInput: nothing >= 0 ? nothing : nil, standardOutput: ends[1],
            standardError: nothing >= 0 ? nothing : nil)
        close(ends[1])
        defer { close(ends[0]) }
        guard case .success(let git) = started else { return nil }
        let output = (try? TextFile.bytes(descriptor: ends[0], name: "git ls-files")) ?? []
        guard git.wait() == 0 else { return nil }
        let prefix = folder.hasSuffix("/") ? folder : folder + "/"
        return output.split(separator: 0).map { prefix + String(decoding: $0, as: UTF8.self) }
    }

    /// The files under `folder`, hidden ones and those in hidden folders left out, symlinked
    /// folders not followed; at most `maximumFiles` of those the index holds, among the first
    /// `maximumWalkedEntries` entries.
    private static func walk(_ folder: String) -> [String] {
        var files: [String] = [], folders = [folder], entriesLeft = maximumWalkedEntries
        while let current = folders.popLast(), files.count < maximumFiles, entriesLeft > 0 {
            guard let entries = opendir(current) else { continue }
            defer { closedir(entries) }
            while entriesLeft > 0, let entry = readdir(entries) {
                entriesLeft -= 1
                let name = withUnsafeBytes(of: entry.pointee.d_name) { bytes in
                    String(decoding: bytes.prefix { $0 != 0 }, as: UTF8.self)
                }
                guard !name.hasPrefix(".") else { continue }
                let path = current + "/" + name
                var status = stat()
                guard lstat(path, &status) == 0 else { continue }
                switch status.st_mode & S_IFMT {
                case S_IFDIR: folders.append(path)
                case S_IFREG where isIndexed(path): files.append(path)
                default: break
                }
            }
        }
        return files
    }
}
