/// Facts about an open store, for `info`.
package struct StoreInfo: Equatable, Sendable {
    package var location: StoreLocation
    package var schemaVersion: Int
    package var memoCount: Int
    package var sqliteVersion: String
    package var journalMode: String
}

extension MemoStore {
    package func info() throws(StoreError) -> StoreInfo {
        try StoreError.wrapping {
            let journalMode = try database.cached("PRAGMA journal_mode").firstRow { $0.string(at: 0) }
            return StoreInfo(
                location: location,
                schemaVersion: Int(try database.integer("PRAGMA user_version")),
                memoCount: try count(),
                sqliteVersion: Database.libraryVersion,
                journalMode: journalMode ?? "unknown"
            )
        }
    }
}
