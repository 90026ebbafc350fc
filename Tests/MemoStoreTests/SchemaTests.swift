import Foundation
import MemoTestSupport
import Testing
@testable import MemoStore

@Suite("The schema's migrations")
struct SchemaTests {
    let folder = TemporaryFolder()

    /// The FNV-1a (64-bit) hash of every migration's SQL as it shipped.
    static let shippedSQLHashes: [Int: UInt64] = [
        1: 0x1E12_FB35_64FD_76D3,
        2: 0x6075_499A_A498_249B,
        3: 0xDD27_0629_CF6B_023A,
        4: 0x09FF_0652_3316_F36C,
        5: 0x8860_77C6_8E09_04B6,
        6: 0x92CA_BFF2_B7CD_1992,
        7: 0xA341_94A7_C5BE_957D,
        8: 0x9A4E_18B3_79F0_427A,
        9: 0x6958_A3ED_FF28_B6B2,
        10: 0x1FA8_7490_BBAC_20B3,
        11: 0x9A4E_18B3_79F0_427A,
    ]

    /// A migration that shipped has run on stores out there: changing its SQL would give
    /// stores of one version different layouts or data. Fix forward with a new migration.
    @Test func shippedMigrationsAreFrozen() {
        for migration in Schema.migrations {
            let hash = fnv1a64(migration.sql)
            #expect(Self.shippedSQLHashes[migration.version] == hash, """
                migration \(migration.version)'s SQL changed (its hash is now 0x\(String(hash, radix: 16))): \
                shipped migrations are frozen, add a new one (a new migration's hash is pinned here when it ships)
                """)
        }
    }

    /// A new store is created in one step (`Schema.fresh`); a store migrated from version 1
    /// must end in exactly the same layout, or the two kinds of store would drift apart.
    @Test func aNewStoreHasTheLayoutTheMigrationsEndIn() throws {
        let migratedPath = folder.file("migrated.sqlite"), freshPath = folder.file("fresh.sqlite")
        try makeVersion1Store(at: migratedPath, "PRAGMA user_version = 1;")
        let migrated = try MemoStore.open(.file(path: migratedPath))
        let fresh = try MemoStore.open(.file(path: freshPath))
        #expect(try layout(of: fresh.database) == layout(of: migrated.database))
        #expect(try layout(of: fresh.database).count > 10)
        for pragma in ["user_version", "application_id"] {
            #expect(try fresh.database.integer("PRAGMA \(pragma)") == migrated.database.integer("PRAGMA \(pragma)"))
        }
    }

    /// Every schema object with its SQL as SQLite stores it, quotes and spacing aside
    /// (SQLite quotes a renamed table's name).
    private func layout(of database: Database) throws -> [String] {
        let statement = try database.prepare("SELECT type, name, tbl_name, sql FROM sqlite_schema ORDER BY name")
        var objects: [String] = []
        while try statement.step() {
            let sql = statement.optionalString(at: 3) ?? ""
            let words = sql.replacingOccurrences(of: "\"", with: "").split(whereSeparator: \.isWhitespace).joined(separator: " ")
            objects.append([statement.string(at: 0), statement.string(at: 1), statement.string(at: 2), words].joined(separator: " | "))
        }
        return objects
    }

    /// Migrating a version-1 file tags inline `@words` and indexes the text exactly as the
    /// migrations always did: by the rules frozen with them, whatever the live rules become.
    @Test func version1StoreGetsItsTagsAndSearchTextByTheFrozenRules() throws {
        let path = folder.file("v1.sqlite")
        do {
            let old = try Database(path: path)
            try old.asAnotherProgram {
                try old.execute(Schema.version1.sql + """
                    INSERT INTO memo(content, insert_date) VALUES ('Buy @Milk and @eggs (@Cafe\u{301}), not a@b.c; @milk again', 1);
                    INSERT INTO memo(content, insert_date) VALUES ('京都旅行 @旅行 の宿', 2);
                    INSERT INTO memo(content, insert_date) VALUES ('plain words, a lone @ and @-', 3);
                    PRAGMA user_version = 1;
                    """)
            }
        }
        let store = try MemoStore.open(.file(path: path))
        // Swift compares strings by canonical equivalence: the lengths show `café` is NFC.
        let tags = "SELECT memo_id || ' ' || name || ' ' || length(name) || ' ' || inline FROM memo_tag ORDER BY memo_id, name"
        #expect(try rows(of: store.database, tags) == ["1 café 4 1", "1 eggs 4 1", "1 milk 4 1", "2 旅行 2 1", "3 - 1 1"])
        #expect(try rows(of: store.database, "SELECT rowid || ' ' || text FROM memo_search ORDER BY rowid") == [
            "1 buy @milk and @eggs (@cafe), not a@b.c; @milk again",
            "2  京都 都旅 旅行 行  @ 旅行 行   の宿 宿 ",
            "3 plain words, a lone @ and @-",
        ])
    }

    /// Version 11 folds typographic quotes and `ẞ`, keeps skin tones, and spells emoji as no
    /// query can: a store of version 10 gets its search text again, so its old memos are
    /// found as new ones are.
    @Test func version10StoreIsSearchedByTheNewFolding() throws {
        let path = folder.file("v10.sqlite")
        do {
            let old = try Database(path: path)
            try old.asAnotherProgram {
                for migration in Schema.migrations.prefix(10) { try old.execute(migration.sql) }
                try old.execute("""
                    INSERT INTO memo(uuid, content, insert_date) VALUES ('00000000-0000-4000-8000-000000000001', 'I don’t know', 1),
                        ('00000000-0000-4000-8000-000000000002', 'GROẞ 👍🏽', 2), ('00000000-0000-4000-8000-000000000003', 'plain 👍', 3);
                    """)
                try Schema.version8.backfill?(old)
                try old.execute("PRAGMA user_version = 10;")
            }
        }
        let store = try MemoStore.open(.file(path: path))
        func ids(_ query: String) throws -> [Int64] {
            try store.all(MemoQuery(filter: MemoFilter(search: SearchQuery(parsing: query)))).map(\.id)
        }
        #expect(try ids("don't") == [1])
        #expect(try ids("gross") == [2])
        #expect(try ids("👍🏽") == [2])
        #expect(try ids("em*") == [])
        #expect(try rows(of: store.database, "SELECT text FROM memo_search WHERE rowid = 1") == ["i don't know"])
    }

    /// Version 6: scripts gave memos in store files the deterministic uuids every scripted
    /// store shares, so syncs merged unrelated memos. Such memos get uuids of their own, the
    /// same in two stores for a memo they both hold (it was synced), in their history too;
    /// a store that synced keeps stamping versions.
    @Test func version5StoresGiveScriptedMemosUUIDsOfTheirOwn() throws {
        func version5Store(_ name: String, _ sql: String) throws -> MemoStore {
            let path = folder.file(name)
            do {
                let old = try Database(path: path)
                try old.asAnotherProgram {
                    for migration in Schema.migrations.prefix(5) {
                        try old.execute(migration.sql)
                        try migration.backfill?(old)
                    }
                    try old.execute(sql + "PRAGMA user_version = 5;")
                }
            }
            return try MemoStore.open(.file(path: path))
        }
        let scripted = "00000000-0000-4000-8000-00000000000"
        let alice = try version5Store("alice.sqlite", """
            INSERT INTO memo(uuid, content, insert_date) VALUES ('\(scripted)1', 'Alice: dentist', 0), ('\(scripted)2', 'shared', 1000),
                                                               ('f0000000-0000-4000-8000-000000000001', 'random', 2);
            INSERT INTO history(at, kind, memo_count, summary) VALUES (0, 'edit', 1, '');
            INSERT INTO history_memo(seq, memo_id, before) VALUES (1, 1, json_object('id', 1, 'uuid', '\(scripted)1', 'content', 'old'));
            INSERT INTO sync_peer(peer_id, acknowledged_seq) VALUES ('peer', 1);
            """)
        let bob = try version5Store("bob.sqlite", """
            INSERT INTO memo(uuid, content, insert_date) VALUES ('\(scripted)1', 'Bob: milk', 0), ('\(scripted)2', 'shared', 1000);
            """)
        let uuids = "SELECT uuid FROM memo ORDER BY id"
        let aliceUUIDs = try rows(of: alice.database, uuids), bobUUIDs = try rows(of: bob.database, uuids)
        #expect(aliceUUIDs.allSatisfy { !$0.hasPrefix(String(scripted.dropLast())) })
        #expect(aliceUUIDs[0] != bobUUIDs[0], "unrelated memos")
        #expect(aliceUUIDs[1] == bobUUIDs[1], "one memo synced to both stores")
        #expect(aliceUUIDs[2] == "f0000000-0000-4000-8000-000000000001")
        #expect(try rows(of: alice.database, "SELECT json_extract(before, '$.uuid') FROM history_memo") == [aliceUUIDs[0]])
        #expect(try rows(of: alice.database, "SELECT versioned || adopted FROM sync_identity") == ["11"])
        #expect(try rows(of: bob.database, "SELECT versioned || adopted FROM sync_identity") == ["00"])
    }

    /// The first column of every row `sql` returns.
    private func rows(of database: Database, _ sql: String) throws -> [String] {
        let statement = try database.prepare(sql)
        var rows: [String] = []
        while try statement.step() { rows.append(statement.string(at: 0)) }
        return rows
    }

    private func fnv1a64(_ text: String) -> UInt64 {
        text.utf8.reduce(0xCBF2_9CE4_8422_2325) { ($0 ^ UInt64($1)) &* 0x0000_0100_0000_01B3 }
    }
}
