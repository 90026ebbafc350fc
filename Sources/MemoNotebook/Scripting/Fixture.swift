import Glibc
import MemoStore

/// A fixture: a command script that fills a store with sample data, for previews, demos
/// and tests (Core Data's preview container, as a file of commands).
package struct Fixture: Equatable, Sendable {
    /// The built-in name, or the path of a fixture file.
    package var name: String
    package var script: String

    package init(name: String, script: String) {
        self.name = name
        self.script = script
    }

    /// The first comment line of the script: what `fixtures` shows.
    package var description: String {
        let comment = TextFile.lines(of: script).first { $0.hasPrefix("#") } ?? ""
        return comment.drop { $0 == "#" || $0 == " " }.trimmingSpaces()
    }

    /// The built-in fixture called `reference`, else the fixture file at that path.
    package static func resolve(_ reference: String) throws(CommandError) -> Fixture {
        if let fixture = builtIn.first(where: { $0.name == reference }) { return fixture }
        let path = UserPath.expand(reference)
        guard access(path, F_OK) == 0 else {
            let names = builtIn.map(\.name).joined(separator: ", ")
            throw .invalid("no fixture '\(reference)': not a built-in one (\(names)) and no such file")
        }
        return Fixture(name: reference, script: try TextFile.read(path))
    }
}
