import MemoModel

/// Where the default store lives: `$MEMO_STORE`, else `$XDG_DATA_HOME/memo/memo.sqlite`,
/// else `~/.local/share/memo/memo.sqlite` (the XDG Base Directory default).
struct StorePath {
    var path: String
    /// Whether someone chose it (`$MEMO_STORE`), as `--store` chooses one: its folders are
    /// never created, and a missing file is not read as an empty store.
    var isChosen: Bool

    static func defaultPath(environment: Environment) -> StorePath? {
        if let path = environment["MEMO_STORE"], !path.isEmpty {
            return StorePath(path: UserPath.expand(path, environment: environment), isChosen: true)
        }
        if let data = environment["XDG_DATA_HOME"], data.hasPrefix("/") {
            return StorePath(path: data + "/memo/memo.sqlite", isChosen: false)
        }
        guard let home = environment["HOME"], !home.isEmpty else { return nil }
        return StorePath(path: home + "/.local/share/memo/memo.sqlite", isChosen: false)
    }
}
