import Glibc

/// Paths as people type them where no shell expands them: in a quoted `--store '~/x'`, in
/// `MEMO_STORE`, or in the REPL's `fixture ~/f.memo`.
package enum UserPath {
    /// `path` with a leading `~` or `~/` replaced by `$HOME`; anything else unchanged
    /// (`~user` is left alone: memo does not look up other users).
    package static func expand(_ path: String, environment: Environment = .process) -> String {
        guard path == "~" || path.hasPrefix("~/"), let home = environment["HOME"], !home.isEmpty else { return path }
        return home + path.dropFirst()
    }

    /// `path` made absolute (from the working folder) and without `//`, `.`, `..` or a
    /// trailing `/`, as text only: the file a path names once its missing folders exist.
    package static func normalized(_ path: String) -> String {
        let absolute = path.hasPrefix("/") ? path : workingFolder() + "/" + path
        var parts: [Substring] = []
        for part in absolute.split(separator: "/") where part != "." {
            if part == ".." { _ = parts.popLast() } else { parts.append(part) }
        }
        return "/" + parts.joined(separator: "/")
    }

    private static func workingFolder() -> String {
        guard let folder = getcwd(nil, 0) else { return "/" }
        defer { free(folder) }
        return String(cString: folder)
    }
}
