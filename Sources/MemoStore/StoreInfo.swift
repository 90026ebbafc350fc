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
            let journal = try database.cached("PRAGMA journal_mode")
            try journal.bind([])
            let journalMode = try journal.step() ? journal.string(at: 0) : "unknown"
            try journal.bind([])
            return StoreInfo(
                location: location,
                schemaVersion: Int(try database.integer("PRAGMA user_version")),
                memoCount: try count(),
                sqliteVersion: Database.libraryVersion,
                journalMode: journalMode
            )
        }
    }
}
