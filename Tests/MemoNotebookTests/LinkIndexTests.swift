import Foundation
import MemoNotebookTestSupport
import MemoTestSupport
import Testing

@testable import MemoNotebook
@testable import MemoStore

/// The link index (schema 10, docs/REFERENCE.md, Links): every writer of memo texts keeps it what
/// the texts say, and a link keeps its memo in a store where the ids differ.
@Suite("The link index")
struct LinkIndexTests {
    let scratch = TemporaryFolder()

    /// Each link the index holds, by its memo and place, with the id of the memo it leads
    /// to here (nil: none).
    func indexed(_ session: ScriptedNotebook) throws -> [String] {
        let rows = try session.notebook.store.database.prepare(
            """
            SELECT l.memo_id, l.start, l.length,
                   (SELECT id FROM memo WHERE uuid = l.target_uuid)
            FROM memo_link l ORDER BY l.memo_id, l.start
            """)
        var links: [String] = []
        while try rows.step() {
            links.append(
                "\(rows.int64(at: 0)) \(rows.int64(at: 1)) \(rows.int64(at: 2)) → \(rows.isNull(at: 3) ? "none" : String(rows.int64(at: 3)))"
            )
        }
        return links
    }

    /// The same, read from the texts as they are now: `#ID` leads to the memo with that id,
    /// `memo:UUID` to the memo with that uuid, a handle to the one memo it names.
    func recomputed(_ session: ScriptedNotebook) throws -> [String] {
        let store = session.notebook.store
        var links: [String] = []
        for memo in try store.memos(MemoQuery(order: .oldestFirst)).collect().sorted(by: { $0.id < $1.id }) {
            for found in TextReferences.all(in: memo.content) {
                let target: Int64? =
                    switch found.reference {
                    case .id(let id): try store.memo(id: id)?.id
                    case .uuid(let uuid): try store.memo(uuid: uuid)?.id
                    case .handle(let handle): try store.match(handle).uuid.flatMap { try store.memo(uuid: $0)?.id }
                    }
                links.append("\(memo.id) \(found.start) \(found.length) → \(target.map(String.init) ?? "none")")
            }
        }
        return links
    }

    /// Random adds and edits whose texts reference memos (by id, by uuid, in code that is not
    /// a reference, ids not there yet), deletes, undo, redo, batches, fixtures, imports: each
    /// step works or meets a refusal it may meet, and after each, the index says what the
    /// texts say.
    @Test(arguments: PropertySeeds.seeds(standard: 3))
    func everyWriterKeepsTheIndexExact(seed: UInt64) throws {
        var random = SeededRandom(seed: seed)
        let session = try ScriptedNotebook(file: scratch.path + "/links.sqlite")
        var linked = 0, batchOpen = false, worked: [String: Int] = [:]
        for step in 0..<150 {
            let memos = try session.notebook.store.memos(MemoQuery()).collect()
            func anyID() -> Int64 { memos.isEmpty ? 1 : memos[Int(random.next() % UInt64(memos.count))].id }
            func reference() -> String {
                switch random.next() % 7 {
                case 0: "#\(anyID())"
                case 1:
                    "memo:\(memos.isEmpty ? "00000000-0000-4000-8000-000000000000" : memos[Int(random.next() % UInt64(memos.count))].uuid)"
                case 2: "#\(90_000 + random.next() % 3)"
                case 3: "`#\(anyID())`"
                case 4: "(#\(anyID()), #\(anyID()))"
                case 5:
                    memos.isEmpty
                        ? "memo:0123abcd"
                        : "\(MemoHandle(prefixOf: memos[Int(random.next() % UInt64(memos.count))].uuid, length: 8 + Int(random.next() % 4)))"
                default: "x#\(anyID())"
                }
            }
            let text = "note \(step) \(reference()) and \(reference())"
            let line: String =
                switch random.next() % 12 {
                case 0, 1, 2: "add \(text)"
                case 3: "edit \(anyID()) \(text)"
                case 4: "edit \(anyID()) plain words"
                case 5: "delete \(anyID())"
                case 6: "undo"
                case 7: "redo"
                case 8: "add \"fenced\\n```\\n#\(anyID())\\n```\\nafter #\(anyID())\""
                case 9: "export \(scratch.path)/export\(step).jsonl"
                case 10: "import \(scratch.path)/export\(step - 1).jsonl"
                default: ["begin", "save", "fixture sample"][Int(random.next() % 3)]
                }
            let done = session.step(line, counting: &worked)
            #expect(
                done.outcome.worked || Self.mayFail(done.verb, done.outcome, memos: memos.count, batchOpen: batchOpen)
                    || done.importsMissingFile,
                "'\(line)' gave \(done.outcome) (seed \(seed), step \(step))")
            if done.outcome.worked && ["begin", "save"].contains(done.verb) { batchOpen = done.verb == "begin" }
            let index = try indexed(session)
            linked = max(linked, index.count)
            #expect(index == (try recomputed(session)), "after '\(line)' (seed \(seed), step \(step))")
        }
        if batchOpen { try session.run("save") }
        #expect(linked > 20)
        #expect(["undo", "begin", "save", "fixture"].allSatisfy { worked[$0, default: 0] > 0 }, "\(worked)")
    }

    /// The failures a step of a random run may meet: an undo or redo with nothing it may take
    /// back or in a batch, an edit or delete in an empty store (of memo 1), `begin` in a batch
    /// and `save` outside one. Every other step must work.
    static func mayFail(_ verb: String, _ outcome: Result<String, any Error>, memos: Int, batchOpen: Bool) -> Bool {
        if ["undo", "redo"].contains(verb), batchOpen, case .failure(let error) = outcome {
            return error as? CommandError == .invalid("save or roll back the batch before '\(verb)'")
        }
        return switch (verb, outcome.refusal) {
        case ("undo", let refusal?), ("redo", let refusal?): refusal.isUndoOrRedoRefusal
        case ("edit", .memoNotFound?), ("delete", .memoNotFound?): memos == 0
        case ("begin", .batchAlreadyOpen?): batchOpen
        case ("save", .noOpenBatch?): !batchOpen
        default: false
        }
    }

    /// Each live memo's links by uuid: its references' places and the uuids of the memos they
    /// name (nil: none), as the store's index has them.
    func linksByUUID(_ session: ScriptedNotebook) throws -> [String: [String]] {
        let rows = try session.notebook.store.database.prepare(
            """
            SELECT m.uuid, l.start, l.length, l.target_uuid FROM memo_link l JOIN memo m ON m.id = l.memo_id ORDER BY m.uuid, l.start
            """)
        var links: [String: [String]] = [:]
        while try rows.step() {
            links[rows.string(at: 0), default: []].append(
                "\(rows.int64(at: 1)) \(rows.int64(at: 2)) → \(rows.isNull(at: 3) ? "none" : rows.string(at: 3))")
        }
        return links
    }

    /// The places of each memo's references, read from its text: the index must have one
    /// link at each, whichever store wrote the text.
    func referencePlaces(_ session: ScriptedNotebook) throws -> [String: [String]] {
        var places: [String: [String]] = [:]
        for memo in try session.notebook.store.memos(MemoQuery()).collect() {
            let found = TextReferences.all(in: memo.content)
            if !found.isEmpty { places[memo.uuid] = found.map { "\($0.start) \($0.length)" } }
        }
        return places
    }

    /// Random adds and edits referencing memos, deletes, undo, redo and syncs between two
    /// stores whose ids differ: each step works or meets a refusal it may meet, every store
    /// links each reference of its texts, and after a sync both stores link every memo they
    /// share to the same memos.
    @Test(arguments: PropertySeeds.seeds(standard: 3))
    func syncedStoresLinkTheSameMemos(seed: UInt64) throws {
        var random = SeededRandom(seed: seed)
        let paths = [scratch.path + "/a\(seed).sqlite", scratch.path + "/b\(seed).sqlite"]
        let stores = try paths.map { try ScriptedNotebook(file: $0) }
        try stores[1].run("add a memo only b has, so ids differ")
        var synced = 0
        for step in 0..<120 {
            let index = Int(random.next() % 2), session = stores[index]
            let memos = try session.notebook.store.memos(MemoQuery()).collect()
            func anyMemo() -> Memo? { memos.isEmpty ? nil : memos[Int(random.next() % UInt64(memos.count))] }
            func reference() -> String {
                guard let memo = anyMemo() else { return "nothing" }
                switch random.next() % 4 {
                case 0: return "memo:\(memo.uuid)"
                case 1: return "#\(90_000 + random.next() % 2)"
                default: return "#\(memo.id)"
                }
            }
            let line: String =
                switch random.next() % 9 {
                case 0, 1, 2: "add note \(step) on \(reference()) and \(reference())"
                case 3: "edit \(anyMemo()?.id ?? 1) edited \(step): \(reference())"
                case 4: "edit \(memos.first?.id ?? 1) \(memos.first?.content ?? "x") more"
                case 5: "delete \(anyMemo()?.id ?? 1)"
                case 6: "undo"
                case 7: "redo"
                default: "sync \(paths[1 - index])"
                }
            let outcome = session.attempt(line)
            let verb = String(line.prefix { $0 != " " })
            #expect(
                outcome.worked || Self.mayFail(verb, outcome, memos: memos.count, batchOpen: false),
                "'\(line)' gave \(outcome) (seed \(seed), step \(step))")
            for store in stores {
                #expect(
                    try Set(
                        linksByUUID(store).mapValues { $0.map { $0.split(separator: " → ")[0] } }.filter {
                            !$0.value.isEmpty
                        }.map { "\($0.key) \($0.value)" })
                        == Set(referencePlaces(store).map { "\($0.key) \($0.value)" }),
                    "after '\(line)' (seed \(seed), step \(step))")
            }
            guard line.hasPrefix("sync") else { continue }
            synced += 1
            let (mine, theirs) = (try linksByUUID(stores[0]), try linksByUUID(stores[1]))
            for (uuid, links) in mine where try stores[1].notebook.store.memo(uuid: uuid) != nil {
                #expect(theirs[uuid] ?? [] == links, "memo \(uuid) after '\(line)' (seed \(seed), step \(step))")
            }
        }
        #expect(synced > 5)
    }

    /// A store from before version 10 gets its links from the migration.
    @Test func theMigrationFillsTheIndex() throws {
        let reopened = try ScriptedNotebook.migrated(
            file: scratch.file("old.sqlite"), after: ["add one", "add two, see #1 and #3", "add three"],
            downgrade: ScriptedNotebook.downgradeToVersion11 + "DROP TABLE memo_link; PRAGMA user_version = 9;")
        #expect(try indexed(reopened) == ["2 9 2 → 1", "2 16 2 → 3"])
    }

    /// Ids are local to a store: `#2` written in one store names the memo with id 2 there,
    /// and after a sync to a store where that memo has another id the link still leads to it,
    /// through edits there too, and back again.
    @Test func linksKeepTheirMemoInAStoreWithOtherIDs() throws {
        let here = try ScriptedNotebook(file: scratch.path + "/here.sqlite")
        let there = try ScriptedNotebook(file: scratch.path + "/there.sqlite")
        try here.run(["add first here", "add milk", "add plan: buy #2"])
        for text in ["one there", "two there", "three there"] { try there.run("add \(text)") }
        try there.run("sync \(scratch.path)/here.sqlite")
        let milk = try #require(try there.notebook.store.memos(MemoQuery()).collect().first { $0.content == "milk" })
        let plan = try #require(
            try there.notebook.store.memos(MemoQuery()).collect().first { $0.content == "plan: buy #2" })
        #expect(milk.id != 2)
        let shown = try there.json("show \(plan.id)")
        #expect(
            shown.contains(##""links":[{"reference":"#2","id":\##(milk.id),"uuid":"\##(milk.uuid)"}]"##), "\(shown)")
        // Read here, the link names milk by its id here; the text stays as written.
        #expect(try there.run("list --links-to \(milk.id)").contains("plan: buy #\(milk.id)"))
        #expect(try there.run("list --links-to 2").isEmpty)
        // An edit is of the text as read: the person typed milk's id here.
        try there.run("edit \(plan.id) plan: buy #\(milk.id) today")
        #expect(try there.run("list --links-to \(milk.id)").contains("plan: buy #\(milk.id) today"))
        try there.run("sync \(scratch.path)/here.sqlite")
        #expect(try here.run("list --links-to 2").contains("plan: buy #2 today"))
        #expect(try here.run("show 2").contains("← #3 plan: buy #2 today"))
    }

    /// An export carries each memo's links by uuid, so a store made by importing it (where
    /// the ids differ) links the same memos, in every format; a `links` member that is not the
    /// text's references is passed over for the text's own.
    @Test(arguments: ["jsonl", "json", "md"])
    func anImportLinksWhatTheExportedStoreLinked(format: String) throws {
        let source = try ScriptedNotebook()
        try source.run("add a")
        try source.run("add b")
        try source.run("delete 1")
        try source.run("add see #2 and #1")
        let file = scratch.path + "/links.\(format)"
        try source.run("export \(file)")
        let copy = try ScriptedNotebook(uuids: RandomUUIDs())
        try copy.run("import \(file)")
        let shown = try copy.json("show 2")
        #expect(
            shown.contains(
                ##""links":[{"reference":"#2","id":1,"uuid":"00000000-0000-4000-8000-000000000002"}]"##
            ),
            "\(shown)")
        #expect(try copy.run("list --links-to 1 --ids") == "2\n")
    }

    @Test func linksThatAreNotTheTextsReferencesArePassedOver() throws {
        let file = scratch.path + "/forged.jsonl"
        try
            (#"{"content":"one"}"# + "\n" + #"{"content":"see #1","links":[{"start":0,"length":3,"uuid":null}]}"# + "\n")
            .write(toFile: file, atomically: true, encoding: .utf8)
        let session = try ScriptedNotebook()
        try session.run("import \(file)")
        #expect(try session.run("list --links-to 1").contains("see #1"))
        // A `memo:UUID` names its memo itself: a hint naming another is passed over.
        let (one, two) = ("11111111-1111-4111-8111-111111111111", "22222222-2222-4222-8222-222222222222")
        let hinted = scratch.path + "/hinted.jsonl"
        try
            ([
                #"{"uuid":"\#(one)","content":"one"}"#, #"{"uuid":"\#(two)","content":"two"}"#,
                #"{"content":"m memo:\#(two) x","links":[{"start":2,"length":41,"uuid":"\#(one)"}]}"#
            ].joined(separator: "\n") + "\n")
            .write(toFile: hinted, atomically: true, encoding: .utf8)
        try session.run("import \(hinted)")
        #expect(try session.run("list --links-to 4").contains("m memo:"))
        #expect(try session.run("list --links-to 3").isEmpty)
    }

    /// A record whose uuid names an unrelated memo here is added under a uuid of its own; in
    /// its file that uuid names the record, so the file's links to it follow it to its new
    /// uuid, whether the record that links comes after it or before, and never lead to the
    /// unrelated memo. A `memo:UUID` names what its text says.
    @Test(arguments: [false, true])
    func linksToARecordAddedUnderANewUUIDFollowIt(linkerFirst: Bool) throws {
        let (taken, linker) = ("77777777-aaaa-4111-8111-000000000001", "88888888-aaaa-4111-8111-000000000001")
        let session = try ScriptedNotebook()
        let local = scratch.path + "/local.jsonl"
        try (#"{"uuid":"\#(taken)","content":"Local unrelated","insertDate":"2020-01-01T00:00:00.000Z"}"# + "\n")
            .write(toFile: local, atomically: true, encoding: .utf8)
        try session.run("import \(local)")
        let records = [
            #"{"uuid":"\#(taken)","content":"Foreign target #1","insertDate":"2024-05-05T00:00:00.000Z","#
                + #""links":[{"start":15,"length":2,"uuid":"\#(taken)"}]}"#,
            #"{"uuid":"\#(linker)","content":"Foreign ref #1 memo:\#(taken)","insertDate":"2024-05-06T00:00:00.000Z","#
                + #""links":[{"start":12,"length":2,"uuid":"\#(taken)"},{"start":15,"length":41,"uuid":"\#(taken)"}]}"#
        ]
        let file = scratch.path + "/foreign.jsonl"
        try ((linkerFirst ? records.reversed() : records).joined(separator: "\n") + "\n")
            .write(toFile: file, atomically: true, encoding: .utf8)
        #expect(try session.run("import \(file)").contains("2 added (1 under a new uuid"))
        let memos = try session.notebook.store.memos(MemoQuery()).collect()
        let target = try #require(memos.first { $0.content.hasPrefix("Foreign target") })
        let referrer = try #require(memos.first { $0.content.hasPrefix("Foreign ref") })
        #expect(target.uuid != taken)
        let links = Set(try indexed(session))
        #expect(
            links == [
                "\(target.id) 15 2 → \(target.id)", "\(referrer.id) 12 2 → \(target.id)", "\(referrer.id) 15 41 → 1"
            ])
        // Imported again, the file changes nothing: its record is the memo the first import made.
        #expect(try session.run("import \(file)").contains("0 added"))
        #expect(try indexed(session).count == 3)
    }

    /// A `links` member that is not a list of places in the text and the memos they name
    /// (null for none) is a malformed record: the import fails at its line, saying why in
    /// one line, and the store is unchanged, in JSON Lines, JSON and the Markdown comment.
    @Test(arguments: [
        (#""x""#, #""links" must be an array of {"start", "length", "uuid"} objects"#),
        (#"[3]"#, #""links" item 1 must be an object with "start", "length" and "uuid""#),
        (
            #"[{"start":4,"length":2,"uuid":null},{"start":-1,"length":2,"uuid":null}]"#,
            #""links" item 2: "start" must be a whole number of bytes, 0 or more"#
        ),
        (
            #"[{"start":4,"length":2.5,"uuid":null}]"#,
            #""links" item 1: "length" must be a whole number of bytes, 0 or more"#
        ),
        (#"[{"start":4,"uuid":null}]"#, #""links" item 1: "length" must be a whole number of bytes, 0 or more"#),
        (#"[{"start":4,"length":2,"uuid":"zz"}]"#, #""links" item 1: "uuid" must be a uuid or null, not 'zz'"#),
        (#"[{"start":4,"length":2}]"#, #""links" item 1: "uuid" must be a uuid or null"#)
    ])
    func malformedLinksFailTheImport(links: String, reason: String) throws {
        let session = try ScriptedNotebook()
        try session.run(["add one", "add two"])
        let file = scratch.path + "/bad.jsonl"
        try (#"{"content":"fine #1"}"# + "\n" + #"{"content":"see #2 here","links":\#(links)}"# + "\n")
            .write(toFile: file, atomically: true, encoding: .utf8)
        let error = try #require(throws: LocatedError.self) { try session.run("import \(file)") }
        #expect(error.line == 2)
        #expect("\(error.underlying)" == reason)
        #expect(try session.run("count") == "2\n")
        let array = scratch.path + "/bad.json"
        try ("[\n" + #"{"content":"fine #1"},"# + "\n" + #"{"content":"see #2 here","links":\#(links)}"# + "\n]\n")
            .write(toFile: array, atomically: true, encoding: .utf8)
        #expect(throws: LocatedError.self) { try session.run("import \(array)") }
        #expect(try session.run("count") == "2\n")
    }

    /// The Markdown comment's short form says a link as `START:LENGTH:NAME`: one whose place
    /// is negative fails the import at its item, as in JSON.
    @Test func aMarkdownLinkOutsideTheTextFailsTheImport() throws {
        let source = try ScriptedNotebook()
        try source.run(["add one", "add see #1"])
        let file = scratch.path + "/links.md"
        try source.run("export \(file)")
        let exported = try String(contentsOfFile: file, encoding: .utf8)
        #expect(exported.contains(" l=4:2:"), "\(exported)")
        try exported.replacingOccurrences(of: " l=4:2:", with: " l=-4:2:").write(
            toFile: file, atomically: true, encoding: .utf8)
        let copy = try ScriptedNotebook()
        let error = try #require(throws: LocatedError.self) { try copy.run("import \(file)") }
        #expect("\(error.underlying)" == #""links" item 1: "start" must be a whole number of bytes, 0 or more"#)
        #expect(try copy.run("count") == "0\n")
    }

    /// A linked memo is named by its first line, cut where a character ends (a memo is not
    /// read whole for it) and shortened to the width as a listing is.
    @Test func linkedMemosAreNamedByTheirFirstLineShortened() throws {
        let session = try ScriptedNotebook()
        try session.run("add one")
        try session.run("add " + String(repeating: "x", count: 199) + "\u{1F469}\u{200D}\u{1F467} tail #1")
        let shown = try session.run("show 1")
        let backlink = try #require(shown.split(separator: "\n").first { $0.hasPrefix("links:") })
        #expect(backlink == "links:    ← #2 " + String(repeating: "x", count: 199) + "…", "\(shown)")
        guard case .command(let show) = try CommandParser.parse(line: "show 1") else {
            Issue.record("show 1 did not parse"); return
        }
        let narrow = StringOutput()
        try TextRenderer(style: TextStyle(width: 40, color: false, displayTime: .utc)).render(
            try session.notebook.execute(show), to: narrow)
        #expect(narrow.text.contains("links:    ← #2 " + String(repeating: "x", count: 24) + "…\n"), "\(narrow.text)")
    }

    /// What a link names is fixed when its text is written, so every store agrees on it: a
    /// `#ID` written before its memo exists names none, here and in a store it syncs to, and
    /// keeps naming none through edits that leave it in the text; written again, it is read
    /// anew. `show` lists links only: a reference that names none is words.
    @Test func aReferenceToAMemoNotThereWhenWrittenNamesNone() throws {
        let here = try ScriptedNotebook(file: scratch.path + "/late-here.sqlite")
        let there = try ScriptedNotebook(file: scratch.path + "/late-there.sqlite")
        try there.run("add only there")
        try here.run(["add plan: see #3 when it is written", "add second", "sync \(scratch.path)/late-there.sqlite"])
        #expect(!(try here.run("show 1").contains("→")))
        #expect(try here.run("list --links-to 3").isEmpty)
        try here.run("sync \(scratch.path)/late-there.sqlite")
        let plan = try #require(
            try there.notebook.store.memos(MemoQuery()).collect().first { $0.content.hasPrefix("plan:") })
        #expect(!(try there.run("show \(plan.id)").contains("→")))
        try here.run("edit 1 plan: see #3, written now")
        #expect(try here.run("list --links-to 3").isEmpty, "the edit left #3 in the text: it still names none")
        try here.run(["edit 1 plan: see the memo written now", "edit 1 plan: see #3, written now"])
        #expect(try here.run("list --links-to 3").contains("written now"))
        try here.run("sync \(scratch.path)/late-there.sqlite")
        #expect(try there.run("list --links-to 1").contains("written now"), "there, #1 is the memo that is #3 here")
    }

    /// An edit keeps what each `#ID` it leaves in the text named, in the order of the text:
    /// of two `#1`, the one that names none stays words and the linked one stays a link.
    @Test func anEditKeepsEachReferenceAsItWas() throws {
        let session = try ScriptedNotebook()
        let file = scratch.path + "/mixed.jsonl"
        try (#"{"content":"Rule #1 first"}"# + "\n").write(toFile: file, atomically: true, encoding: .utf8)
        try session.run(["add target", "import \(file)"])
        try session.run("edit 2 Rule #1 first, then see #1")
        #expect(try indexed(session) == ["2 5 2 → none", "2 24 2 → 1"])
        try session.run("edit 2 Now: Rule #1 first, then see #1 again")
        #expect(try indexed(session) == ["2 10 2 → none", "2 29 2 → 1"])
    }

    /// Writing a text costs its length, however many references it makes: a memo of 200,000
    /// `#ID`s, all on one line (each once took a scan back through the line, each word
    /// starting with `m` a copy of the rest of it), is written, and the index holds every
    /// one of its links, to the memo each names.
    @Test func aTextOfTwoHundredThousandReferencesIsWrittenAndLinked() throws {
        let session = try ScriptedNotebook()
        try session.run(["add one", "add two"])
        try session.run("add " + Array(repeating: "#1 m #2", count: 100_000).joined(separator: " "))
        let rows = try session.notebook.store.database.prepare(
            """
            SELECT t.id, count(*) FROM memo_link l LEFT JOIN memo t ON t.uuid = l.target_uuid
            WHERE l.memo_id = 3 GROUP BY t.id ORDER BY t.id
            """)
        var counts: [String] = []
        while try rows.step() {
            counts.append("\(rows.isNull(at: 0) ? "none" : String(rows.int64(at: 0))) \(rows.int64(at: 1))")
        }
        #expect(counts == ["1 100000", "2 100000"])
    }

    /// An export of a memo of 70,000 references imports back: its JSON Lines record, whose
    /// links member says what each names, is longer than a line of commands (5 MB).
    @Test func aMemoOfManyReferencesImportsBack() throws {
        let source = try ScriptedNotebook()
        try source.run(["add one", "add two", "add " + Array(repeating: "#1 #2", count: 35_000).joined(separator: " ")])
        let file = scratch.path + "/many.jsonl"
        try source.run("export \(file)")
        let copy = try ScriptedNotebook()
        try copy.run("import \(file)")
        #expect(try indexed(copy).count == 70_000)
    }

    /// A delete names the memos that referenced what it deleted; their links show the memo
    /// missing until an undo brings it back.
    @Test func aDeleteNamesItsReferrers() throws {
        let session = try ScriptedNotebook()
        try session.run(["add target", "add see #1", "add also memo:00000000-0000-4000-8000-000000000001"])
        #expect(try session.run("delete 1") == "deleted #1; it was referenced by #2, #3\n")
        #expect(
            try session.json("show 2").contains(
                ##""links":[{"reference":"#1","id":null,"uuid":"00000000-0000-4000-8000-000000000001"}]"##))
        // Named by its handle and what it said, never by `#1`, which a later memo may have.
        let handle = try session.notebook.handle(ofUUID: "00000000-0000-4000-8000-000000000001")
        #expect(try session.run("show 2").contains("links:    → \(handle) target (deleted)\n"))
        try session.run("undo")
        #expect(try session.json("show 1").contains(#""backlinks":[{"id":2,"uuid":"#))
        #expect(try session.json("delete 2 3") == #"{"deleted":[2,3]}"# + "\n")
    }
}
