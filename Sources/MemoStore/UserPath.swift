/// Paths as people type them where no shell expands them: in a quoted `--store '~/x'`, in
/// `MEMO_STORE`, or in the REPL's `fixture ~/f.memo`.
package enum UserPath {
    /// `path` with a leading `~` or `~/` replaced by `$HOME`; anything else unchanged
    /// (`~user` is left alone: memo does not look up other users).
    package static func expand(_ path: String, environment: Environment = .process) -> String {
        guard path == "~" || path.hasPrefix("~/"), let home = environment["HOME"], !home.isEmpty else { return path }
        return home + path.dropFirst()
    }
}
