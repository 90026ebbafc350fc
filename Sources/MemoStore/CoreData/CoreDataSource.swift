import FoundationEssentials
import Glibc

/// A Core Data or SwiftData store (SQLite) to read memos from, never written to.
///
/// Core Data keeps each entity in a table `Z<ENTITY>` (sub-entities share their root's
/// table, told apart by `Z_ENT`), attributes in columns `Z<ATTRIBUTE>`, the entity names in
/// `Z_PRIMARYKEY`, and dates as seconds since 2001-01-01T00:00:00Z. A store copied from a
/// running app keeps its newest rows in its `-wal` file. Opening the file itself, even
/// read-only, could checkpoint it or leave a `-shm` file behind, and `immutable=1` would
/// ignore the WAL; so the file and its WAL are copied into a private temporary folder, as a
/// consistent snapshot even while the app writes (`CoreDataSnapshot`), and the copy is
/// opened: everything the store holds is read, and the source is never touched. A failure
/// to read the copy names the source, never the user's own store.
package final class CoreDataSource {
    private let database: Database
    private let folder: String
    /// The source's path, for messages.
    package let path: String
    /// The store's own identity (`Z_METADATA.Z_UUID`), when it has one.
    package let storeUUID: String?

    package init(path: String) throws(StoreError) {
        self.path = path
        guard access(path, R_OK) == 0 else { throw .cannotOpen(path: path, reason: String(cString: strerror(errno))) }
        folder = FileManager.default.temporaryDirectory.path + "/memo-coredata-" + UUID().uuidString
        do {
            try PrivateFiles.createParentFolders(of: folder + "/store.sqlite")
            database = try CoreDataSnapshot.take(of: path, to: folder + "/store.sqlite")
            guard
                try database.integer(
                    "SELECT count(*) FROM sqlite_schema WHERE type = 'table' AND name = 'Z_PRIMARYKEY'") == 1
            else {
                throw StoreError.notAMemoStore(
                    path: path, reason: "not a Core Data store: it has no Z_PRIMARYKEY table")
            }
            storeUUID =
                try? database.prepare("SELECT Z_UUID FROM Z_METADATA").firstRow { $0.optionalString(at: 0) } ?? nil
        } catch {
            try? FileManager.default.removeItem(atPath: folder)
            if let error = error as? StoreError { throw error }
            if let error = error as? SQLiteError, error.code == .notADatabase {
                throw .notAMemoStore(path: path, reason: "not an SQLite database")
            }
            throw .cannotOpen(path: path, reason: (error as? SQLiteError)?.explanation ?? failureReason(error))
        }
    }

    deinit {
        try? FileManager.default.removeItem(atPath: folder)
    }

    /// The entity names the store declares.
    package func entities() throws(StoreError) -> [String] {
        try StoreError.wrapping {
            let statement = try database.prepare("SELECT Z_NAME FROM Z_PRIMARYKEY ORDER BY Z_NAME")
            var names: [String] = []
            while try statement.step() { names.append(statement.string(at: 0)) }
            return names
        }
    }

    /// The rows of `entity` as memos' raw material: the text attributes' values and the date
    /// attribute's, read lazily. Names match case-insensitively, as Core Data upper-cases
    /// them; a name that does not exist is an error listing those that do.
    package func rows(
        entity: String, textAttributes: [String], dateAttribute: String
    ) throws(StoreError) -> CoreDataRows {
        try CoreDataRows.namingSource(path) {
            let (table, entityID) = try self.table(of: entity)
            let columns = try self.columns(of: table)
            func column(_ attribute: String) throws -> String {
                guard let name = columns.first(where: { $0.uppercased() == "Z" + attribute.uppercased() }) else {
                    let known = columns.filter { !$0.hasPrefix("Z_") }.map { String($0.dropFirst()).lowercased() }
                    throw StoreError.invalidContent(
                        "entity \(entity) has no attribute '\(attribute)'; its attributes are: "
                            + known.joined(separator: ", "))
                }
                return name
            }
            // Identifiers cannot be bound: only names read from the store's own schema are
            // used, quoted; the user's words only choose among them.
            let selected = try textAttributes.map(column) + [try column(dateAttribute)]
            let filter = columns.contains("Z_ENT") ? " WHERE Z_ENT = ?1" : ""
            let sql =
                "SELECT Z_PK, " + selected.map(Self.quoted).joined(separator: ", ") + " FROM " + Self.quoted(table)
                + filter + " ORDER BY Z_PK"
            let statement = try database.prepare(sql)
            try statement.bind(filter.isEmpty ? [] : [.integer(entityID)])
            let total =
                try database.prepare("SELECT count(*) FROM " + Self.quoted(table) + filter).scalarInt(
                    filter.isEmpty ? [] : [.integer(entityID)]) ?? 0
            return CoreDataRows(
                statement: statement, textColumns: textAttributes.count, total: Int(total), source: path)
        }
    }

    /// The table holding `entity`'s rows: its root entity's, and its `Z_ENT` number.
    private func table(of entity: String) throws -> (String, Int64) {
        let statement = try database.prepare("SELECT Z_ENT, Z_NAME, Z_SUPER FROM Z_PRIMARYKEY")
        var entities: [(id: Int64, name: String, parent: Int64)] = []
        while try statement.step() {
            entities.append((statement.int64(at: 0), statement.string(at: 1), statement.int64(at: 2)))
        }
        guard var current = entities.first(where: { $0.name.uppercased() == entity.uppercased() }) else {
            throw StoreError.invalidContent(
                "no entity '\(entity)' in \(path); its entities are: "
                    + entities.map(\.name).sorted().joined(separator: ", "))
        }
        let id = current.id
        while current.parent != 0, let parent = entities.first(where: { $0.id == current.parent }) { current = parent }
        return ("Z" + current.name.uppercased(), id)
    }

    private func columns(of table: String) throws -> [String] {
        let statement = try database.prepare("SELECT name FROM pragma_table_info(?1)")
        try statement.bind([.text(table)])
        var names: [String] = []
        while try statement.step() { names.append(statement.string(at: 0)) }
        if names.isEmpty {
            throw StoreError.invalidContent("\(path) declares entity table \(table) but does not have it")
        }
        return names
    }

    private static func quoted(_ identifier: String) -> String {
        "\"" + identifier.replacing("\"", with: "\"\"") + "\""
    }
}

/// The rows of one entity, one at a time.
package final class CoreDataRows {
    /// One row: its primary key, the text attributes' values that hold text, and its date.
    package struct Row {
        package var primaryKey: Int64
        package var texts: [String]
        package var date: Timestamp?
    }

    private let statement: Statement
    private let textColumns: Int
    /// How many rows there are, for progress.
    package let total: Int
    /// The Core Data store's path, which a failure to read names.
    private let source: String

    init(statement: Statement, textColumns: Int, total: Int, source: String) {
        self.statement = statement
        self.textColumns = textColumns
        self.total = total
        self.source = source
    }

    /// Runs `body`, reporting a failure of the source's file as the source's, so that it is
    /// never mistaken for damage to the store being imported into.
    static func namingSource<T>(_ source: String, _ body: () throws -> T) throws(StoreError) -> T {
        do {
            return try StoreError.wrapping(body)
        } catch .sqlite(let error) where error.isStoreFailure {
            throw .cannotOpen(path: source, reason: error.explanation)
        }
    }

    /// Seconds between 1970-01-01 and Core Data's reference date, 2001-01-01T00:00:00Z.
    static let referenceDateOffset: Double = 978_307_200

    package func next() throws(StoreError) -> Row? {
        try Interruption.check()
        guard try Self.namingSource(source, { try statement.step() }) else { return nil }
        var texts: [String] = []
        for column in 1...Int32(textColumns) where !statement.isNull(at: column) {
            // White space alone is no text, as in every other import.
            let text = statement.string(at: column)
            if !text.allSatisfy(\.isWhitespace) { texts.append(text) }
        }
        let dateColumn = Int32(textColumns + 1)
        var date: Timestamp?
        if statement.isNumber(at: dateColumn) {
            // To the microsecond first, then down to the millisecond, as the v1 migration does.
            let microseconds = ((statement.double(at: dateColumn) + Self.referenceDateOffset) * 1_000_000).rounded()
            if microseconds.isFinite, abs(microseconds) < 9e18 {
                let value = Int64(microseconds)
                date = Timestamp(millisecondsSince1970: (value - ((value % 1000) + 1000) % 1000) / 1000)
            }
        }
        return Row(primaryKey: statement.int64(at: 0), texts: texts, date: date)
    }
}
