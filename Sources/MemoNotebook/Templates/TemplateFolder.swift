import Glibc
import MemoStore

/// The folder of `add --template NAME`'s templates and of `today`'s `daily` one
/// (docs/REFERENCE.md, Templates): `$XDG_CONFIG_HOME/memo/templates`, else
/// `~/.config/memo/templates`. An empty or relative `XDG_CONFIG_HOME` is ignored, as the XDG
/// Base Directory specification says.
package struct TemplateFolder: Equatable, Sendable {
    package let path: String

    package init(path: String) {
        self.path = path
    }

    /// The folder the environment names, or nil when it names none (no HOME either).
    package init?(environment: Environment) {
        if let config = environment["XDG_CONFIG_HOME"], config.hasPrefix("/") {
            path = config + "/memo/templates"
        } else if let home = environment["HOME"], !home.isEmpty {
            path = home + "/.config/memo/templates"
        } else {
            return nil
        }
    }

    /// The template named `name`'s text, or nil when the folder holds none of that name. A
    /// file that cannot be read, or is not UTF-8 text, fails as any text file memo reads.
    func text(of name: TemplateName) throws(CommandError) -> String? {
        let file = path + "/" + name.text
        var status = stat()
        guard stat(file, &status) == 0 else {
            if errno == ENOENT || errno == ENOTDIR { return nil }
            throw TextFile.cannotRead(file, errno)
        }
        return try TextFile.read(file)
    }

    /// The names of the templates there, sorted: its files, without those whose name starts
    /// with a dot (an editor's swap file, `.DS_Store`). None when the folder is missing.
    package func names() -> [String] {
        guard let folder = opendir(path) else { return [] }
        defer { closedir(folder) }
        var names: [String] = []
        while let entry = readdir(folder) {
            let name = withUnsafeBytes(of: entry.pointee.d_name) {
                String(decoding: $0.prefix { $0 != 0 }, as: UTF8.self)
            }
            var status = stat()
            guard TemplateName(name) != nil, stat(path + "/" + name, &status) == 0, status.st_mode & S_IFMT != S_IFDIR
            else { continue }
            names.append(name)
        }
        return names.sorted()
    }

    /// The error of a template that is not there: the folder and what it holds, in one line.
    func missing(_ name: TemplateName) -> CommandError {
        let names = names()
        var status = stat()
        let there: String
        if !names.isEmpty {
            there = "templates there: " + names.joined(separator: ", ")
        } else {
            there = stat(path, &status) == 0 ? "it holds no templates" : "the folder does not exist"
        }
        return .invalid("no template '\(name.text)' in \(path) (\(there))")
    }
}

/// A template's name: one file name in the folder, so that no name reaches a file outside it
/// (`../x`, `/etc/passwd`, `a/b` are refused), and not a hidden one.
package struct TemplateName: Equatable, Sendable {
    package let text: String

    /// The template `add --template` names when it spells one, else nil.
    package init?(_ text: String) {
        guard !text.isEmpty, !text.hasPrefix("."), !text.contains("/"), !text.contains("\0") else { return nil }
        self.text = text
    }

    /// `today`'s template.
    static let daily = TemplateName("daily")!
}
