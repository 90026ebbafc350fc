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
        12: 0x391C_3277_8140_6310,
        13: 0xA5E4_D4C0_B914_D27C
    ]

    /// A migration that shipped has run on stores out there: changing its SQL would give
    /// stores of one version different layouts or data. Fix forward with a new migration.
    @Test func shippedMigrationsAreFrozen() {
        for migration in Schema.migrations {
            let hash = fnv1a64(migration.sql)
            #expect(
                Self.shippedSQLHashes[migration.version] == hash,
                """
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
            let words = sql.replacingOccurrences(of: "\"", with: "").split(whereSeparator: \.isWhitespace).joined(
                separator: " ")
            objects.append(
                [statement.string(at: 0), statement.string(at: 1), statement.string(at: 2), words].joined(
                    separator: " | "))
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
                try old.execute(
                    Schema.version1.sql + """
                        INSERT INTO memo(content, insert_date) VALUES ('Buy @Milk and @eggs (@Cafe\u{301}), not a@b.c; @milk again', 1);
                        INSERT INTO memo(content, insert_date) VALUES ('京都旅行 @旅行 の宿', 2);
                        INSERT INTO memo(content, insert_date) VALUES ('plain words, a lone @ and @-', 3);
                        PRAGMA user_version = 1;
                        """)
            }
        }
        let store = try MemoStore.open(.file(path: path))
        // Swift compares strings by canonical equivalence: the lengths show `café` is NFC.
        let tags =
            "SELECT memo_id || ' ' || name || ' ' || length(name) || ' ' || inline FROM memo_tag ORDER BY memo_id, name"
        #expect(try rows(of: store.database, tags) == ["1 café 4 1", "1 eggs 4 1", "1 milk 4 1", "2 旅行 2 1", "3 - 1 1"])
        #expect(
            try rows(of: store.database, "SELECT rowid || ' ' || text FROM memo_search ORDER BY rowid") == [
                "1 buy @milk and @eggs (@cafe), not a@b.c; @milk again",
                "2  京都 都旅 旅行 行  @ 旅行 行   の宿 宿 ",
                "3 plain words, a lone @ and @-"
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
                try old.execute(
                    """
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
        let alice = try version5Store(
            "alice.sqlite",
            """
            INSERT INTO memo(uuid, content, insert_date) VALUES ('\(scripted)1', 'Alice: dentist', 0), ('\(scripted)2', 'shared', 1000),
                                                               ('f0000000-0000-4000-8000-000000000001', 'random', 2);
            INSERT INTO history(at, kind, memo_count, summary) VALUES (0, 'edit', 1, '');
            INSERT INTO history_memo(seq, memo_id, before) VALUES (1, 1, json_object('id', 1, 'uuid', '\(scripted)1', 'content', 'old'));
            INSERT INTO sync_peer(peer_id, acknowledged_seq) VALUES ('peer', 1);
            """)
        let bob = try version5Store(
            "bob.sqlite",
            """
            INSERT INTO memo(uuid, content, insert_date) VALUES ('\(scripted)1', 'Bob: milk', 0), ('\(scripted)2', 'shared', 1000);
            """)
        let uuids = "SELECT uuid FROM memo ORDER BY id"
        let aliceUUIDs = try rows(of: alice.database, uuids), bobUUIDs = try rows(of: bob.database, uuids)
        #expect(aliceUUIDs.allSatisfy { !$0.hasPrefix(String(scripted.dropLast())) })
        #expect(aliceUUIDs[0] != bobUUIDs[0], "unrelated memos")
        #expect(aliceUUIDs[1] == bobUUIDs[1], "one memo synced to both stores")
        #expect(aliceUUIDs[2] == "f0000000-0000-4000-8000-000000000001")
        #expect(
            aliceUUIDs.prefix(2) == ["9b180b18-de20-8eed-bdf2-c6483a04ee64", "cc065849-49f7-8d41-b71a-af888086601a"],
            "each derived from its uuid, insert date and text by the rule of version 6")
        #expect(
            try rows(of: alice.database, "SELECT json_extract(before, '$.uuid') FROM history_memo") == [aliceUUIDs[0]])
        #expect(try rows(of: alice.database, "SELECT versioned || adopted FROM sync_identity") == ["11"])
        #expect(try rows(of: bob.database, "SELECT versioned || adopted FROM sync_identity") == ["00"])
    }

    /// A store file of `version`, built as that version built it: the migrations up to it
    /// replayed, SQL and backfills, then `sql` (its memos) run on it.
    private func store(ofVersion version: Int, _ name: String, _ sql: String) throws -> String {
        let path = folder.file(name)
        let old = try Database(path: path)
        try upgrade(old, from: 0, to: version)
        try old.asAnotherProgram { try old.execute(sql + "PRAGMA user_version = \(version);") }
        return path
    }

    /// Runs the migrations after `version` up to `target` as opening a store runs them (with
    /// the right to write memo rows that the migrations hold).
    private func upgrade(_ database: Database, from version: Int, to target: Int) throws {
        for migration in Schema.migrations where migration.version > version && migration.version <= target {
            try database.asAnotherProgram {
                try database.execute(migration.sql)
                try migration.backfill?(database)
            }
        }
    }

    /// Memos for the search backfills: CJK runs, case, accents, compatibility forms,
    /// ligatures, typographic quotes, emoji with a skin tone and a joiner, white space runs.
    private static let searchMemos = """
        INSERT INTO memo(uuid, content, insert_date) VALUES
            ('00000000-0000-4000-8000-00000000000a', 'Kyoto 京都旅行 trip, 한국어 여행을', 1),
            ('00000000-0000-4000-8000-00000000000b', 'ÉCOLE Straße ＡＢＣ ﬁne Ⅻ ① Ǆ', 2),
            ('00000000-0000-4000-8000-00000000000c', 'GROẞ don’t “x” 👍\u{1F3FD} 👨\u{200D}👩\u{200D}👧 🍕☕', 3),
            ('00000000-0000-4000-8000-00000000000d', 'ｶﾀｶ\u{FF9E}ﾅ ガ\u{3000}tab\tand  spaces\u{200B}x', 4),
            ('00000000-0000-4000-8000-00000000000e', 'Plain  ASCII, no folding', 5);
        """

    /// The search text of every memo, by rowid.
    private static let searchText = "SELECT rowid || ' ' || text FROM memo_search ORDER BY rowid"

    /// The backfills of versions 3, 8 and 11, run on a store of version 2 as its upgrade runs
    /// them, each index every text by the rule of its day: version 3 cuts CJK runs into
    /// pairs; version 8 also folds case, accents, compatibility forms and white space, and
    /// makes each emoji a word; version 11 also folds typographic quotes and `ẞ`, keeps skin
    /// tones and spells emoji words as no query can.
    @Test func searchBackfillsIndexAStoreByTheRulesOfTheirDays() throws {
        let path = try store(ofVersion: 2, "v2.sqlite", Self.searchMemos)
        let version8 = [
            "1 kyoto  京都 都旅 旅行 行  trip,  한국 국어 어   여행 행을 을 ",
            "2 ecole strasse abc fine xii 1 dz",
            "3 groß don’t “x”  emoji1f44d   emoji1f468  emoji1f469  emoji1f467   emoji1f355  emoji2615 ",
            "4  カタ タガ ガナ ナ   ガ  tab and spacesx",
            "5 plain ascii, no folding"
        ]
        do {
            let database = try Database(path: path)
            try upgrade(database, from: 2, to: 3)
            let version3 = try rows(of: database, Self.searchText)
            #expect(
                version3 == [
                    "1 Kyoto  京都 都旅 旅行 行  trip,  한국 국어 어   여행 행을 을 ",
                    "2 ÉCOLE Straße ＡＢＣ ﬁne Ⅻ ① Ǆ",
                    "3 GROẞ don’t “x” 👍\u{1F3FD} 👨\u{200D}👩\u{200D}👧 🍕☕",
                    "4  ｶﾀ ﾀｶ ｶ\u{FF9E} \u{FF9E}ﾅ ﾅ   ガ \u{3000}tab\tand  spaces\u{200B}x",
                    "5 Plain  ASCII, no folding"
                ])
            try upgrade(database, from: 3, to: 8)
            try database.execute("PRAGMA user_version = 8")
            let indexed = try rows(of: database, Self.searchText)
            #expect(indexed == version8)
        }
        let store = try MemoStore.open(.file(path: path))
        var version11 = version8
        version11[2] =
            "3 gross don't \"x\"  ｅｍｏｊｉ1f44d  ｅｍｏｊｉ1f3fd   ｅｍｏｊｉ1f468  ｅｍｏｊｉ1f469  ｅｍｏｊｉ1f467   ｅｍｏｊｉ1f355  ｅｍｏｊｉ2615 "
        let indexed = try rows(of: store.database, Self.searchText)
        #expect(indexed == version11)
    }

    /// Version 10's backfill, run when a store of version 9 is opened, indexes the references
    /// of every text by the rule of its day: a `#ID` names the memo that had the id (none for
    /// an id no memo had), a `memo:UUID` its uuid; none in code, URLs, markup, fragments or
    /// words; places in UTF-8 bytes, lines ending at `\n`, `\r\n` or `\r`.
    @Test func version10LinksAVersion9StoreByItsRule() throws {
        let path = try store(
            ofVersion: 9, "v9.sqlite",
            """
            INSERT INTO memo(uuid, content, insert_date) VALUES
                ('00000000-0000-4000-8000-00000000000a', 'see #2, (#3) and MEMO:00000000-0000-4000-8000-00000000000B.', 1),
                ('00000000-0000-4000-8000-00000000000b', 'é #1 not a#1, #1b, #0, #99, /#1, &#1; or https://x.org/#1', 2),
                ('00000000-0000-4000-8000-00000000000c', 'code `#1` <a href="#1"> [x](#1)\r\n```\n#2\n```\r  [y]: #1\n> - #1 memo:00000000-0000-4000-8000-00000000000a', 3);
            """)
        let store = try MemoStore.open(.file(path: path))
        let links =
            "SELECT memo_id || ' ' || start || ' ' || length || ' ' || coalesce(target_uuid, '-') FROM memo_link ORDER BY memo_id, start"
        let linked = try rows(of: store.database, links)
        #expect(
            linked == [
                "1 4 2 00000000-0000-4000-8000-00000000000b",
                "1 9 2 00000000-0000-4000-8000-00000000000c",
                "1 17 41 00000000-0000-4000-8000-00000000000b",
                "2 3 2 00000000-0000-4000-8000-00000000000a",
                "2 24 3 -",
                "3 58 2 00000000-0000-4000-8000-00000000000a",
                "3 61 41 00000000-0000-4000-8000-00000000000a"
            ])
    }

    /// Version 5 gives the memos of a store of version 4 a first version of this store (their
    /// last change: the update date, else the insert date; their place in its changes: their
    /// id) and the store its counters.
    @Test func version5VersionsTheMemosOfAVersion4Store() throws {
        let store = try MemoStore.open(
            .file(
                path: store(
                    ofVersion: 4, "v4.sqlite",
                    """
                    INSERT INTO memo(uuid, content, insert_date, update_date) VALUES ('00000000-0000-4000-8000-00000000000a', 'one', 1000, 5000),
                        ('00000000-0000-4000-8000-00000000000b', 'two', 2000, NULL);
                    """)))
        let versions = try rows(
            of: store.database,
            """
            SELECT id || ' ' || (version = json_object(store_id, 1)) || ' ' || changed_at || ' ' || (changed_by = store_id) || ' '
                   || change_seq FROM memo, sync_identity ORDER BY id
            """)
        #expect(versions == ["1 1 5000 1 1", "2 1 2000 1 2"])
        #expect(try rows(of: store.database, "SELECT seq || ' ' || clock FROM sync_identity") == ["2 5000"])
    }

    /// Version 9 keeps each memo's tag names in its row: a store of version 8 gets them from
    /// its tags, in SQLite's order of text, one space apart.
    @Test func version9WritesTheTagNamesOfAVersion8Store() throws {
        let store = try MemoStore.open(
            .file(
                path: store(
                    ofVersion: 8, "v8.sqlite",
                    Self.searchMemos + """
                        INSERT INTO memo_tag(memo_id, name, inline) VALUES (1, 'trip', 0), (1, 'kyoto', 1), (1, 'ärger', 0), (2, 'b', 0);
                        """)))
        #expect(
            try rows(of: store.database, "SELECT id || ':' || tag_names FROM memo ORDER BY id") == [
                "1:kyoto trip ärger", "2:b", "3:", "4:", "5:"
            ])
    }

    /// Version 12 keeps each memo's word count in its row: a store of version 11 gets the
    /// counts by the rule of its day, runs between white space (each character Unicode calls
    /// white space, ASCII's and beyond), a CJK run without spaces one word; and its
    /// insert-date index carries them.
    @Test func version12CountsTheWordsOfAVersion11Store() throws {
        let store = try MemoStore.open(
            .file(
                path: store(
                    ofVersion: 11, "v11.sqlite",
                    Self.searchMemos + """
                        INSERT INTO memo(uuid, content, insert_date) VALUES
                            ('00000000-0000-4000-8000-00000000000f', '', 6),
                            ('00000000-0000-4000-8000-000000000010', ' a\u{85}b\u{A0}c\u{1680}d\u{2000}e\u{200A}f\u{2028}g\u{2029}h', 7),
                            ('00000000-0000-4000-8000-000000000011', 'i\u{202F}j\u{205F}k\u{3000}l\u{0B}m\u{0C}n\r\no\u{200B}p\u{1C}q\u{7F}r ', 8);
                        """)))
        #expect(
            try rows(of: store.database, "SELECT id || ':' || word_count FROM memo ORDER BY id") == [
                "1:5", "2:7", "3:6", "4:5", "5:4", "6:0", "7:8", "8:7"
            ])
        let plan = try rows(of: store.database, "EXPLAIN QUERY PLAN SELECT sum(word_count) FROM memo", column: 3)
        #expect(plan == ["SCAN memo USING COVERING INDEX memo_by_insert_date"])
    }

    /// Version 13 keeps in each memo's row whether its versions are only its state's names:
    /// a store of version 12 gets it for an imported memo with and without explicit tags, and
    /// not for one a store changed, nor for one whose text changed since it was named (a
    /// store that kept no versions edited it), by the names the store's versions are made of;
    /// and whether each has links.
    @Test func version13KeepsWhichMemosOfAVersion12StoreAreNamedByTheirStateAndLinked() throws {
        let store = try MemoStore.open(
            .file(
                path: store(
                    ofVersion: 12, "v12.sqlite",
                    """
                    INSERT INTO memo(uuid, content, insert_date, update_date, tag_names) VALUES
                        ('00000000-0000-4000-8000-000000000001', 'see #1 and #9', 1000, NULL, ''),
                        ('00000000-0000-4000-8000-000000000002', 'two', 2000, 2500, 'x'),
                        ('00000000-0000-4000-8000-000000000003', 'three', 3000, NULL, ''),
                        ('00000000-0000-4000-8000-000000000004', 'four', 4000, NULL, '');
                    INSERT INTO memo_tag(memo_id, name, inline, added_by, added_seq) VALUES (2, 'x', 0, memo_state_name('x'), 1);
                    UPDATE memo SET text_by = memo_state_name(content, insert_date, update_date), text_seq = 1, change_seq = 1,
                                    version = json_object(memo_state_name(content, insert_date, update_date), 1),
                                    tags_version = json_object(memo_state_name(CASE id WHEN 2 THEN 'x' ELSE '' END), 1);
                    UPDATE memo SET support = (SELECT json_group_object(name, 1) FROM (
                        SELECT memo.text_by AS name UNION SELECT key FROM json_each(memo.tags_version) ORDER BY name));
                    UPDATE memo SET version = json_set(version, '$.store', 3), text_by = 'store', text_seq = 3 WHERE id = 3;
                    UPDATE memo SET content = 'four, edited' WHERE id = 4;
                    INSERT INTO memo_link(memo_id, start, length, target_uuid) VALUES
                        (1, 4, 2, '00000000-0000-4000-8000-000000000001'), (1, 11, 2, NULL), (3, 0, 0, NULL);
                    """)))
        #expect(
            try rows(of: store.database, "SELECT id || ':' || state_named || linked FROM memo ORDER BY id") == [
                "1:11", "2:10", "3:01", "4:00"
            ])
        let misnamed = "SELECT count(*) FROM memo WHERE state_named IS NOT \(SyncStamping.isOnlyItsStateSQL)"
        #expect(try rows(of: store.database, misnamed) == ["0"])
    }

    /// The first column of every row `sql` returns.
    private func rows(of database: Database, _ sql: String, column: Int32 = 0) throws -> [String] {
        let statement = try database.prepare(sql)
        var rows: [String] = []
        while try statement.step() { rows.append(statement.string(at: column)) }
        return rows
    }

    private func fnv1a64(_ text: String) -> UInt64 {
        text.utf8.reduce(0xCBF2_9CE4_8422_2325) { ($0 ^ UInt64($1)) &* 0x0000_0100_0000_01B3 }
    }
}
