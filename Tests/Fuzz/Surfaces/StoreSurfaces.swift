// Compiled into MemoStore by scripts/fuzz only: a Core Data store made of fuzzer bytes,
// read as `import --format coredata` reads one.
import Foundation

package enum FuzzSurfaces {
    package static func coreDataStore(_ bytes: UnsafeRawBufferPointer) {
        let path = NSTemporaryDirectory() + "memo-fuzz-coredata-\(getpid()).sqlite"
        guard FileManager.default.createFile(atPath: path, contents: Data(bytes)) else { return }
        defer { unlink(path) }
        guard let source = try? CoreDataSource(path: path), let entities = try? source.entities() else { return }
        for entity in entities.prefix(4) {
            guard let rows = try? source.rows(entity: entity, textAttributes: ["content"], dateAttribute: "insertDate")
            else { continue }
            while case .some(.some) = try? rows.next() {}
        }
    }
}
