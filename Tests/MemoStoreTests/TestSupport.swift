import Foundation

@testable import MemoStore

/// A draft stamped at `seconds` after 2000-01-01, with a uuid derived from the number.
func draft(_ content: String, at seconds: Int64 = 0, tags: [String] = [], number: Int = 1) -> MemoDraft {
    let digits = String(number)
    return MemoDraft(
        uuid: "00000000-0000-4000-8000-" + String(repeating: "0", count: 12 - digits.count) + digits,
        content: content,
        insertDate: Timestamp(secondsSince1970: 946_684_800 + seconds),
        tags: tags)
}

extension MemoStore {
    /// Every memo `query` selects, collected (tests only: real code streams).
    func all(_ query: MemoQuery = MemoQuery()) throws -> [Memo] {
        let cursor = try memos(query)
        var memos: [Memo] = []
        while let memo = try cursor.next() { memos.append(memo) }
        return memos
    }

    /// Ids of full-text matches, straight from the FTS5 index.
    func fullTextMatches(_ query: String) throws -> [Int64] {
        let statement = try database.prepare("SELECT rowid FROM memo_search WHERE memo_search MATCH ?1 ORDER BY rowid")
        try statement.bind([.text(query)])
        var ids: [Int64] = []
        while try statement.step() { ids.append(statement.int64(at: 0)) }
        return ids
    }
}

/// Writes an SQLite database at `path` with `sql`, as another program would (past the write
/// rule), and closes it.
func makeDatabase(at path: String, _ sql: String) throws {
    let database = try Database(path: path)
    try database.asAnotherProgram { try database.execute(sql) }
}

/// Writes a store as the first memo did: the version-1 table, then `sql`.
func makeVersion1Store(at path: String, _ sql: String) throws {
    try makeDatabase(
        at: path,
        """
        CREATE TABLE memo(id INTEGER PRIMARY KEY AUTOINCREMENT, content TEXT NOT NULL, insert_date REAL NOT NULL);
        """ + sql)
}
