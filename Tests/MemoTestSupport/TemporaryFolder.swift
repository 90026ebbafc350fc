import Foundation

/// A fresh folder under the system's temporary folder for the files one test writes, removed
/// with everything in it when the test lets go of it. The one way a Swift test makes a
/// temporary folder.
package final class TemporaryFolder: Sendable {
    package let path: String

    package init() {
        path = NSTemporaryDirectory() + "memo-tests-" + UUID().uuidString
        try? FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
    }

    deinit {
        try? FileManager.default.removeItem(atPath: path)
    }

    /// The path of `name` inside the folder (which need not exist).
    package func file(_ name: String) -> String { path + "/" + name }

    /// Writes `text` to `name` inside the folder; returns its path.
    @discardableResult
    package func write(_ text: String, to name: String) throws -> String {
        try text.write(toFile: file(name), atomically: true, encoding: .utf8)
        return file(name)
    }
}

extension FileManager {
    /// The permission bits of the file or folder at `path`; nil when it cannot be read.
    package func mode(of path: String) -> Int? {
        (try? attributesOfItem(atPath: path)[.posixPermissions] as? NSNumber)?.intValue
    }
}
