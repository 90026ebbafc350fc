/// Facts about an open store, for `info`.
package struct StoreInfo: Equatable, Sendable {
    package var location: StoreLocation
    package var schemaVersion: Int
    package var memoCount: Int
    package var sqliteVersion: String
    package var journalMode: String
    /// Whether the store is sealed at rest (`memo encrypt`).
    package var isEncrypted = false
}

extension StoreInfo {
    /// The facts of the store at `location`, read from its connection.
    init(reading database: Database, location: StoreLocation, memoCount: Int, isEncrypted: Bool) throws(StoreError) {
        self = try StoreError.wrapping {
            let journalMode = try database.cached("PRAGMA journal_mode").firstRow { $0.string(at: 0) }
            return StoreInfo(
                location: location,
                schemaVersion: Int(try database.integer("PRAGMA user_version")),
                memoCount: memoCount,
                sqliteVersion: Database.libraryVersion,
                journalMode: journalMode ?? "unknown",
                isEncrypted: isEncrypted
            )
        }
    }
}
