/// One step of the schema: SQL run, with an optional backfill that needs Swift (such as
/// reading inline tags) and the version bump, in the transaction that upgrades the store.
///
/// Frozen once shipped: `SchemaTests` pins its SQL, and a backfill applies frozen copies of
/// the rules of its day, never live code, so a later change of a rule cannot change what an
/// old migration does: each frozen rule is private to the file of its backfill
/// (`Version2TagRule`, `FrozenSearchRule`, `Version10LinkRule`, `Version12WordRule`).
struct Migration: Sendable {
    let version: Int
    let sql: String
    let backfill: (@Sendable (Database) throws -> Void)?

    init(version: Int, sql: String, backfill: (@Sendable (Database) throws -> Void)? = nil) {
        self.version = version
        self.sql = sql
        self.backfill = backfill
    }

    /// Calls `body` with the id and text of every memo: what the backfills read.
    static func forEachMemo(in database: Database, _ body: (Int64, String) throws -> Void) throws {
        let rows = try database.prepare("SELECT id, content FROM memo")
        while try rows.step() { try body(rows.int64(at: 0), rows.string(at: 1)) }
    }

    /// Puts every memo in the search index, which must be empty, by `indexed`: the search
    /// text rule of the backfill's version.
    static func indexEveryMemo(in database: Database, by indexed: (String) -> String) throws {
        let index = try database.prepare("INSERT INTO memo_search(rowid, text) VALUES (?1, ?2)")
        try forEachMemo(in: database) { id, content in try index.run([.integer(id), .text(indexed(content))]) }
    }
}
