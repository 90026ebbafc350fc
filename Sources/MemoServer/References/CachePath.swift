import Glibc
import MemoModel

/// Paths of the memos' folders, compared as the file system sees them: a cache folder given
/// with a trailing slash or through a symlink still names the same files.
enum CachePath {
    /// `path` without `//`, `.`, `..` or a trailing `/`, as text only.
    static func normalized(_ path: String) -> String {
        UserPath.normalized(path)
    }

    /// `path` with its symlinks resolved (`realpath`) when it exists, else normalized.
    static func resolved(_ path: String) -> String {
        guard let real = realpath(path, nil) else { return normalized(path) }
        defer { free(real) }
        return String(cString: real)
    }

    static func parent(of path: String) -> String {
        normalized(path + "/..")
    }

    /// The name of a store's own folder: the store file's name and a hash of its resolved
    /// path (`work-1f0c…`), so two stores never share files; an in-memory store gets a
    /// private one, by process and at random.
    static func folderName(of location: StoreLocation) -> String {
        switch location {
        case .file(let path):
            let resolvedPath = resolved(path) // a store's location is absolute
            let fileName = resolvedPath.split(separator: "/").last.map { $0.split(separator: ".").first ?? $0 } ?? ""
            let label = String(String.UnicodeScalarView(fileName.unicodeScalars.filter(isPlain).prefix(40)))
            return (label.isEmpty ? "store" : label) + "-" + hash(resolvedPath)
        case .memory:
            return "memory-\(getpid())-" + String(UInt64.random(in: 0...UInt64.max), radix: 16)
        }
    }

    /// A character that reads the same in every file manager and URI.
    private static func isPlain(_ scalar: Unicode.Scalar) -> Bool {
        scalar.isASCII
            && (scalar.properties.isAlphabetic || scalar.properties.numericType != nil || scalar == "-"
                || scalar == "_")
    }

    /// 16 hexadecimal digits of a stable hash of `text` (`StableUUID`), the same in every process.
    private static func hash(_ text: String) -> String {
        String(StableUUID.make(from: text).filter { $0 != "-" }.prefix(16))
    }
}
