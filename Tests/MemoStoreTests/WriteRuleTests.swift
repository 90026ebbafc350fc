import CSQLite
import MemoTestSupport
import Testing

@testable import MemoStore

/// SQLite holds every connection to the write rule (`Database.memoRowTables`): memo rows are
/// written by their one writer (`MemoTable`, `HistoryImages`, `SyncStamping`) and the
/// migrations, and any other statement that writes them is refused when it is prepared,
/// however its SQL is spelled, and changes nothing. (The tables FTS5 keeps `memo_search` in
/// are refused by SQLite's defensive mode, which lets FTS5's own statements through.)
@Suite("The write rule")
struct WriteRuleTests {
    /// Writes of memo rows outside the writer, in the forms a search of the source for SQL
    /// let through: the table on the next line, its name interpolated, quoted, or with its
    /// schema, and writes of the tables beside `memo`.
    static let strayWrites: [String] = {
        let table = "memo_tag"
        return [
            "DELETE FROM\n    memo WHERE id = 1",
            "DELETE FROM \(table)",
            "UPDATE \"memo\" SET content = 'changed'",
            "UPDATE main.memo SET content = 'changed' WHERE id = 1",
            "update MEMO set content = 'changed'",
            "INSERT INTO memo(uuid, content, insert_date) VALUES ('00000000-0000-4000-8000-0000000000aa', 'stray', 0)",
            "DELETE FROM memo_tag WHERE memo_id = 1",
            "DELETE FROM memo_search WHERE rowid = 1",
            "INSERT INTO memo_search(rowid, text) VALUES (99, 'stray')",
            "DELETE FROM memo_search_content",
            "INSERT INTO memo_search_data(id, block) VALUES (999, x'00')",
            "DELETE FROM memo_link",
            "DELETE FROM memo_tombstone",
            "INSERT INTO temp.pending_change(memo_id, before) VALUES (1, NULL)",
            "WITH doomed AS (SELECT id FROM memo) DELETE FROM memo WHERE id IN doomed",
            "REPLACE INTO memo_tag(memo_id, name) VALUES (1, 'stray')",
            "DROP TABLE memo_link",
            "DROP TABLE memo_search",
            "ALTER TABLE memo ADD COLUMN stray TEXT",
            "ALTER TABLE memo_tag RENAME TO stray",
            "CREATE TRIGGER stray AFTER INSERT ON memo BEGIN DELETE FROM history; END"
        ]
    }()

    /// A store with rows in each memo row table: tags, a link, a tombstone.
    let store: MemoStore

    init() throws {
        store = try MemoStore.open(.memory)
        try store.insert(draft("first @errand, see #2", number: 1))
        try store.insert(draft("second", at: 1, tags: ["kept"], number: 2))
        _ = try store.delete(ids: [2], at: Timestamp(secondsSince1970: 946_684_900))
        try store.insert(draft("third", at: 2, number: 3))
    }

    /// Everything the memo row tables hold, as text, to see that a refused write changed nothing.
    private func rows() throws -> [String] {
        try store.historyImages.createStagingTable()
        var rows: [String] = []
        for query in [
            "SELECT id, uuid, content, version, tags_version, tag_names FROM memo ORDER BY id",
            "SELECT memo_id, name, inline FROM memo_tag ORDER BY memo_id, name",
            "SELECT rowid, text FROM memo_search ORDER BY rowid",
            "SELECT memo_id, start, length, target_uuid FROM memo_link ORDER BY memo_id, start",
            "SELECT uuid, version FROM memo_tombstone ORDER BY uuid",
            "SELECT memo_id, before FROM temp.pending_change ORDER BY memo_id",
            "SELECT name, sql FROM sqlite_schema ORDER BY name",
            "SELECT id, block FROM memo_search_data ORDER BY id"
        ] {
            let statement = try store.database.prepare(query)
            while try statement.step() {
                rows.append(
                    (0..<statement.columnCount).map { statement.optionalString(at: $0) ?? "NULL" }
                        .joined(separator: "|"))
            }
        }
        return rows
    }

    @Test(arguments: strayWrites)
    func aStrayWriteIsRefusedAndChangesNothing(sql: String) throws {
        let before = try rows()
        let changes = store.database.totalChanges
        #expect(throws: SQLiteError.self) { try store.database.execute(sql) }
        #expect(throws: SQLiteError.self) { try store.database.prepare(sql) }
        do {
            _ = try store.database.cached(sql)
            Issue.record("\(sql) was prepared")
        } catch let error as SQLiteError {
            let isAShadowTable =
                error.message.hasSuffix("may not be modified") || error.message.hasSuffix("may not be dropped")
            #expect(error.code == ResultCode(SQLITE_AUTH) || isAShadowTable, "\(error)")
        }
        #expect(store.database.totalChanges == changes)
        #expect(try rows() == before)
        #expect(try store.fullTextMatches("first") == [1])
    }

    /// SQLite asks when it prepares a statement, not when it runs one: the writer's own
    /// statement, cached, is not handed to anyone outside the writer.
    @Test func theWritersCachedStatementIsNotReusedOutsideIt() throws {
        let before = try rows()
        #expect(throws: SQLiteError.self) {
            try store.database.cached("DELETE FROM memo WHERE id = ?1").run([.integer(1)])
        }
        #expect(throws: SQLiteError.self) {
            try store.database.cached("DELETE FROM memo_search WHERE rowid = ?1").run([.integer(1)])
        }
        #expect(try rows() == before)
    }

    /// A trigger's actions are checked when the statement that fires it is prepared (or
    /// prepared again, once the trigger exists): one that writes memo rows from a write of
    /// another table outside the writer makes that write fail, and the change with it.
    @Test func aTriggerOutsideTheWriterCannotWriteMemoRows() throws {
        try store.insert(draft("recorded before the trigger", at: 3, number: 4))
        try store.database.execute("CREATE TRIGGER stray AFTER INSERT ON history BEGIN DELETE FROM memo; END")
        let before = try rows()
        #expect(throws: StoreError.self) { try store.insert(draft("fires the trigger", at: 4, number: 5)) }
        #expect(try rows() == before)
    }

    @Test func readsOfTheSameTablesPass() throws {
        #expect(try rows().count > 5)
        #expect(try store.fullTextMatches("third") == [3])
        #expect(try store.database.integer("SELECT count(*) FROM memo_tag WHERE name = 'errand'") == 1)
        #expect(try store.database.integer("SELECT count(*) FROM memo_link") == 1)
        #expect(try store.database.integer("SELECT count(*) FROM memo_tombstone") == 1)
    }

    /// The writer and its parts write under the rule: each kind of change, undo and redo
    /// (`HistoryImages`), a batch whose search rows FTS5 writes when it commits, and a
    /// statement the writer cached, prepared again after the schema changed.
    @Test func theWritersOwnWritesPass() throws {
        let time = Timestamp(secondsSince1970: 946_685_000)
        try store.updateContent(id: 1, to: "first, edited @errand", at: time)
        try store.addTags(["more"], to: 3, at: time)
        try store.removeTags(["more"], from: 3, at: time)
        try store.replaceTags(of: 3, with: ["other"], at: time)
        try store.database.execute("CREATE TABLE unrelated(x)")
        try store.insert(draft("fourth", at: 3, number: 4))
        _ = try store.delete(ids: [4], at: time)
        _ = try store.undo(.latest, at: time)
        _ = try store.redo(.latest, at: time)
        _ = try store.undo(.latest, at: time)
        try store.beginBatch(at: time)
        try store.insert(draft("in a batch", at: 4, number: 5))
        try store.updateContent(id: 5, to: "in a batch, edited", at: time)
        try store.saveBatch()
        #expect(
            try store.all(MemoQuery(order: .oldestFirst)).map(\.content) == [
                "first, edited @errand", "third", "fourth", "in a batch, edited"
            ])
        #expect(try store.fullTextMatches("edited") == [1, 5])
        #expect(try store.fullTextMatches("fourth") == [4])
        #expect(try store.memo(id: 3)?.tags == ["other"])
    }

    /// FTS5 keeps the search rows of a change in memory and writes them to its own tables with
    /// statements of its own when the transaction commits (or a savepoint begins or ends),
    /// after the writer returned: those statements run with the writer's right too. A store
    /// opened again runs no migration, so FTS5 prepares them then, at the first commit.
    @Test func searchRowsAreSavedWhenTheChangeCommits() throws {
        let folder = TemporaryFolder()
        let path = folder.file("memo.sqlite")
        try MemoStore.open(.file(path: path)).insert(draft("before", number: 1))
        let reopened = try MemoStore.open(.file(path: path))
        try reopened.insert(draft("after reopening", number: 2))
        _ = try reopened.undo(.latest, at: Timestamp(secondsSince1970: 946_685_000))
        try reopened.beginBatch(at: Timestamp(secondsSince1970: 946_685_001))
        try reopened.insert(draft("in a batch", number: 3))
        try reopened.saveBatch()
        let again = try MemoStore.open(.file(path: path))
        try again.allOrNothing {
            try again.insert(draft("all", number: 4))
            try again.insert(draft("or nothing", number: 5))
        }
        #expect(
            try MemoStore.open(.file(path: path)).fullTextMatches("before OR reopening OR batch OR all OR nothing") == [
                1, 3, 4, 5
            ])
    }

    /// FTS5 saves the search rows it holds in memory when a later statement of the transaction
    /// writes several rows (a savepoint of its own), whoever runs it: here one outside the
    /// writer, in a store opened again, so FTS5 prepares its statements then.
    @Test func searchRowsAreSavedByAStatementOutsideTheWriter() throws {
        let folder = TemporaryFolder()
        let path = folder.file("memo.sqlite")
        try MemoStore.open(.file(path: path)).insert(draft("before", number: 1))
        let reopened = try MemoStore.open(.file(path: path))
        try reopened.historyImages.createStagingTable()
        try reopened.database.atomically {
            _ = try reopened.table.insert(
                draft("held by FTS5", number: 2), explicitTags: [], inlineTags: [], facts: nil)
            try reopened.database.execute("UPDATE history SET undone = undone")
        }
        #expect(try MemoStore.open(.file(path: path)).fullTextMatches("before OR held") == [1, 2])
    }
}
