import Foundation
import Testing

/// Rules of the source that no behaviour shows, checked by reading it.
@Suite("Rules the source keeps")
struct SourceRuleTests {
    /// The Swift files of a source folder, by path relative to the package, with their text.
    static func sources(_ folder: String) throws -> [(path: String, text: String)] {
        let root = URL(filePath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        let directory = root.appending(path: folder)
        let enumerator = try #require(FileManager.default.enumerator(atPath: directory.path))
        return try enumerator.compactMap { $0 as? String }.filter { $0.hasSuffix(".swift") }.sorted().map { file in
            (folder + "/" + file, try String(contentsOf: directory.appending(path: file), encoding: .utf8))
        }
    }

    /// The server is one more face of the notebook: it reaches the store only through
    /// `Notebook`, so every change runs as a command (with the clock and uuids given back on
    /// failure) and every read is one the notebook offers.
    @Test func theServerNeverReachesPastTheNotebookIntoItsStore() throws {
        let files = try Self.sources("Sources/MemoServer")
        #expect(!files.isEmpty)
        for file in files {
            #expect(!file.text.contains(".store."), "\(file.path) uses the store directly")
            #expect(!file.text.contains(".store)"), "\(file.path) hands the store on")
        }
    }

    /// JSON is one type (`JSONValue`), read through `JSONDecoder`: no tree of `Any` in the
    /// notebook or the server.
    @Test func jsonIsReadOneWay() throws {
        let files = try Self.sources("Sources/MemoNotebook") + Self.sources("Sources/MemoServer")
        for file in files {
            for name in ["JSONSerialization", "NSNumber", "NSNull"] {
                #expect(!file.text.contains(name), "\(file.path) uses \(name)")
            }
        }
    }
}
