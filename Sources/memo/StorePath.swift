import MemoStore

/// Where the default store lives: `$MEMO_STORE`, else `$XDG_DATA_HOME/memo/memo.sqlite`,
/// else `~/.local/share/memo/memo.sqlite` (the XDG Base Directory default).
enum StorePath {
    static func defaultPath(environment: Environment) -> String? {
        if let path = environment["MEMO_STORE"], !path.isEmpty { return UserPath.expand(path, environment: environment) }
        if let data = environment["XDG_DATA_HOME"], data.hasPrefix("/") { return data + "/memo/memo.sqlite" }
        guard let home = environment["HOME"], !home.isEmpty else { return nil }
        return home + "/.local/share/memo/memo.sqlite"
    }
}
