import MemoModel

/// Where the REPL keeps its history: `$XDG_STATE_HOME/memo/history`, else
/// `~/.local/state/memo/history` (the XDG Base Directory default), folder 0700, file 0600.
/// A session on an encrypted store neither reads nor writes it: its lines stay in memory.
enum HistoryFile {
    /// Said once, on standard error, when a REPL on an encrypted store starts.
    static let notSavedNotice = "memo: the store is encrypted: this session's history is not saved"

    static func path(environment: Environment) -> String? {
        if let state = environment["XDG_STATE_HOME"], state.hasPrefix("/") { return state + "/memo/history" }
        guard let home = environment["HOME"], !home.isEmpty else { return nil }
        return home + "/.local/state/memo/history"
    }

    /// Creates the history file and its folders privately; nil if that is impossible, in
    /// which case the REPL runs without a history file rather than not at all.
    static func prepare(environment: Environment) -> String? {
        guard let path = path(environment: environment) else { return nil }
        do {
            try PrivateFiles.createParentFolders(of: path)
            try PrivateFiles.createFile(at: path)
            return path
        } catch {
            return nil
        }
    }
}
