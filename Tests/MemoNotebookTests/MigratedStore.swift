import MemoNotebookTestSupport

@testable import MemoNotebook
@testable import MemoStore

extension ScriptedNotebook {
    /// The store file at `path` written by `lines`, taken back to an older schema by
    /// `downgrade` (SQL, written as another program would: past the
    /// write rule), then opened again: what the migrations make of it.
    static func migrated(file path: String, after lines: [String], downgrade: String) throws -> ScriptedNotebook {
        let old = try ScriptedNotebook(file: path)
        try old.run(lines)
        let database = old.notebook.store.database
        try database.asAnotherProgram { try database.execute(downgrade) }
        return try ScriptedNotebook(file: path)
    }

    /// SQL that takes a store of version 13 back to version 12's layout (the user version
    /// aside): a downgrade to an older one starts with it.
    static let downgradeToVersion12 = "ALTER TABLE memo DROP COLUMN state_named; ALTER TABLE memo DROP COLUMN linked;"

    /// SQL that takes a store of version 13 back to version 11's layout (the user version
    /// aside).
    static let downgradeToVersion11 =
        downgradeToVersion12 + """
            DROP INDEX memo_by_insert_date; CREATE INDEX memo_by_insert_date ON memo(insert_date, id);
            ALTER TABLE memo DROP COLUMN word_count;
            """
}
