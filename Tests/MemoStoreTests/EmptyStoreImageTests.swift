import Foundation
import MemoTestSupport
import Testing

@testable import MemoStore

/// A store in memory starts as a copy of the empty store's image (`EmptyStoreImage`): it must
/// be the store the migrations make, and a connection to it set as any other.
@Suite("The empty store's image")
struct EmptyStoreImageTests {
    /// Fails when a migration was added or changed and the image not made again. With
    /// `MEMO_REGENERATE_STORE_IMAGE=1` (scripts/regenerate-store-image) it writes the image
    /// from the migrations instead.
    @Test func theImageIsTheStoreTheMigrationsMake() throws {
        let migrated = try StoreOpening.inMemory(standingInFor: .memory, fromImage: false).database
        if ProcessInfo.processInfo.environment["MEMO_REGENERATE_STORE_IMAGE"] == "1" {
            return try Self.writeImage(of: migrated)
        }
        #expect(EmptyStoreImage.isCurrent, "the image is of another schema version: run scripts/regenerate-store-image")
        let copied = try StoreOpening.inMemory(standingInFor: .memory, fromImage: true).database
        let (image, migrations) = (try contents(of: copied), try contents(of: migrated))
        #expect(image.contains { $0.hasPrefix("table memo memo: CREATE TABLE memo(") })
        #expect(
            image.difference(from: migrations).isEmpty,
            "the image differs from the store the migrations make: run scripts/regenerate-store-image")
    }

    /// The image holds no store id: each store takes its own, as a migrated one does.
    @Test func everyStoreInMemoryHasAnIDOfItsOwn() throws {
        let ids = try (0..<3).map { _ in
            try SyncIdentity(database: MemoStore.open(.memory).database).storeID()
        }
        #expect(Set(ids).count == 3)
        #expect(ids.allSatisfy { UUIDText($0)?.canonical == $0 })
    }

    /// Only the schema's making is replaced: pragmas, SQL functions and the write rule are
    /// the connection's, set as for a store the migrations made.
    @Test func aCopyOfTheImageIsSetAsAMigratedStore() throws {
        let copied = try StoreOpening.inMemory(standingInFor: .memory, fromImage: true).database
        let migrated = try StoreOpening.inMemory(standingInFor: .memory, fromImage: false).database
        #expect(try settings(of: copied) == settings(of: migrated))
        #expect(try copied.integer("PRAGMA foreign_keys") == 1)
        #expect(try rows(of: copied, "PRAGMA journal_mode") == ["memory"])
        #expect(throws: SQLiteError.self) { try copied.execute("DELETE FROM memo") }
    }

    /// A stand-in (for a store file not made yet) is made in memory too, and makes no file.
    @Test func aStandInIsAnEmptyStoreThatMakesNoFile() throws {
        let folder = TemporaryFolder()
        let path = folder.file("later.sqlite")
        let standIn = try MemoStore.standIn(for: path)
        #expect(try standIn.count() == 0)
        #expect(try standIn.database.integer("PRAGMA user_version") == Schema.currentVersion)
        #expect(!FileManager.default.fileExists(atPath: path))
    }

    /// The connection's settings that are not the file's.
    private func settings(of database: Database) throws -> [String] {
        let pragmas = [
            "foreign_keys", "recursive_triggers", "cache_size", "busy_timeout", "temp_store", "journal_mode",
            "synchronous", "locking_mode", "defer_foreign_keys", "trusted_schema"
        ]
        return try pragmas.map { "\($0) = \(try rows(of: database, "PRAGMA \($0)"))" }
            + rows(of: database, "SELECT name || ' ' || narg FROM pragma_function_list ORDER BY 1")
    }

    /// What the file holds: its header's settings, every schema object, and every row of
    /// every table (the search index's own tables too) but the store's random id.
    private func contents(of database: Database) throws -> [String] {
        var contents = try ["user_version", "application_id", "page_size", "auto_vacuum", "encoding"].map {
            "\($0) = \(try rows(of: database, "PRAGMA \($0)"))"
        }
        contents += try rows(
            of: database, "SELECT type || ' ' || name || ' ' || tbl_name || ': ' || ifnull(sql, '') FROM sqlite_schema"
        )
        .sorted()
        let tables = try rows(
            of: database, "SELECT name FROM sqlite_schema WHERE type = 'table' AND sql NOT LIKE 'CREATE VIRTUAL%'")
        for table in tables {
            let columns = try rows(of: database, "SELECT name FROM pragma_table_info('\(table)') ORDER BY cid")
                .filter { !(table == "sync_identity" && $0 == "store_id") }
            let values = columns.map { "quote(\"\($0)\")" }.joined(separator: " || ', ' || ")
            contents += try rows(of: database, "SELECT \(values) FROM \"\(table)\"").sorted().map { "\(table): \($0)" }
        }
        return contents
    }

    private func rows(of database: Database, _ sql: String) throws -> [String] {
        let statement = try database.prepare(sql)
        var rows: [String] = []
        while try statement.step() { rows.append(statement.string(at: 0)) }
        return rows
    }

    /// Writes the store `database` holds, without its random id, as the C array of
    /// Sources/CStoreImage/EmptyStoreImage.c, leaving out runs of zero bytes.
    private static func writeImage(of database: Database) throws {
        try database.execute("UPDATE sync_identity SET store_id = ''")
        let bytes = try database.withImage { Array($0) }
        var lines: [String] = []
        var offset = 0
        while offset < bytes.count {
            guard bytes[offset] != 0 else {
                offset += 1
                continue
            }
            // A run ends at eight zero bytes in a row, or the end.
            var end = offset
            while end < bytes.count, bytes[end..<min(end + 8, bytes.count)].contains(where: { $0 != 0 }) { end += 1 }
            for start in stride(from: offset, to: end, by: 16) {
                let values = bytes[start..<min(start + 16, end)].map { "0x" + String($0, radix: 16) }
                lines.append("    " + (start == offset ? "[\(start)] = " : "") + values.joined(separator: ", ") + ",")
            }
            offset = end
        }
        let source = """
            // Generated by scripts/regenerate-store-image from the migrations: do not edit.
            // An empty memo store at schema version \(Schema.currentVersion), without a store id: \
            \(bytes.count) bytes, the zero bytes left out.
            #include "CStoreImage.h"

            static const unsigned char image[\(bytes.count)] = {
            \(lines.joined(separator: "\n"))
            };

            const unsigned char *memo_empty_store_image(size_t *size) {
                *size = sizeof image;
                return image;
            }

            """
        let file = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
            .appendingPathComponent("../../Sources/CStoreImage/EmptyStoreImage.c").standardized
        try source.write(to: file, atomically: true, encoding: .utf8)
    }
}
