import Foundation
import MemoNotebookTestSupport
import MemoTestSupport
import Testing

@testable import MemoNotebook
@testable import MemoStore

/// A memo keeps its tag names in its row (`tag_names`, schema 9) for listings to read; every
/// writer of tags must keep them equal to the memo's tags in `memo_tag`. It keeps its word
/// count too (`word_count`, schema 12) for `stats` to sum; every writer of texts must keep it
/// equal to the words of its text by the live rule (`WordCount`).
@Suite("Kept tag names and word counts")
struct KeptTagNamesTests {
    let scratch = TemporaryFolder()

    /// Memos whose kept names differ from their tags.
    func stale(_ session: ScriptedNotebook) throws -> Int64? {
        try session.notebook.store.database.prepare(
            """
            SELECT count(*) FROM memo WHERE tag_names IS NOT
                coalesce((SELECT group_concat(name, ' ') FROM (SELECT name FROM memo_tag WHERE memo_id = memo.id ORDER BY name)), '')
            """
        ).scalarInt([])
    }

    /// Memos whose kept word count differs from the words of their text.
    func miscounted(_ session: ScriptedNotebook) throws -> [Int64] {
        let rows = try session.notebook.store.database.prepare("SELECT id, content, word_count FROM memo")
        var miscounted: [Int64] = []
        while try rows.step() {
            var content = rows.string(at: 1)
            if content.withUTF8({ WordCount.words(in: $0) }) != rows.int64(at: 2) {
                miscounted.append(rows.int64(at: 0))
            }
        }
        return miscounted
    }

    /// Memos whose kept export facts differ from the facts found afresh: `state_named` from
    /// whether their versions are only their state's names (`SyncStamping.isOnlyItsStateSQL`),
    /// `linked` from whether they have links; and how many are named, and linked.
    func misjudged(_ session: ScriptedNotebook) throws -> (misjudged: [Int64], named: Int, linked: Int) {
        let rows = try session.notebook.store.database.prepare(
            """
            SELECT id, state_named, \(SyncStamping.isOnlyItsStateSQL), linked, EXISTS (SELECT 1 FROM memo_link WHERE memo_id = memo.id)
            FROM memo
            """)
        var misjudged: [Int64] = [], named = 0, linked = 0
        while try rows.step() {
            if rows.int64(at: 1) != rows.int64(at: 2) || rows.int64(at: 3) != rows.int64(at: 4) {
                misjudged.append(rows.int64(at: 0))
            }
            named += rows.int64(at: 2) == 1 ? 1 : 0
            linked += rows.int64(at: 4) == 1 ? 1 : 0
        }
        return (misjudged, named, linked)
    }

    /// Random adds, edits that change inline tags and the number of words, bulk edits, moves,
    /// tag, untag, tag renames, delete, undo, redo, imports of the other store's export and
    /// of another program's file (no versions; links and tags), syncs and their undoing: each
    /// step works, or meets a refusal it may meet, and after each, every memo's
    /// kept names are its tags, its kept word count its text's, its kept `state_named` whether
    /// its versions are only its state's names (imports make such memos) and `linked` whether
    /// it has links, on both stores.
    @Test(arguments: PropertySeeds.seeds(standard: 3))
    func everyWriterKeepsTheNamesAndWordCounts(seed: UInt64) throws {
        var random = SeededRandom(seed: seed)
        let paths = [scratch.path + "/a.sqlite", scratch.path + "/b.sqlite"]
        let stores = try paths.map { try ScriptedNotebook(file: $0) }
        // A bulk edit adds a word to every line of text it opens.
        let wordier = ScriptedEditor { buffer in
            buffer.split(separator: "\n", omittingEmptySubsequences: false)
                .map { $0.hasPrefix("%%") || $0.isEmpty ? $0 : $0 + " more" }.joined(separator: "\n")
        }
        for store in stores { store.notebook.missingTextSource = wordier }
        var tagged = 0, named = 0, linked = 0, worked: [String: Int] = [:]
        for step in 0..<160 {
            let index = Int(random.next() % 2), session = stores[index]
            let ids = try session.notebook.store.memos(MemoQuery()).collect().map(\.id)
            func anyID() -> Int64 { ids[Int(random.next() % UInt64(ids.count))] }
            let tag = "t\(random.next() % 4)"
            let line: String =
                switch ids.isEmpty ? 0 : random.next() % 18 {
                case 0: "add memo \(step) @\(tag)"
                case 1: "add memo \(step) @zeta @été @\(tag) @a-b @日本"
                case 2: "edit \(anyID()) now @\(tag) and @x\(random.next() % 2)"
                case 3: "edit \(anyID()) no tags in the text"
                case 4: "tag \(anyID()) \(tag) extra"
                case 5: "untag \(anyID()) \(tag)"
                case 6: "delete \(anyID())"
                case 7: "undo"
                case 8: "redo"
                case 9: "sync \(paths[1 - index])"
                case 10: "export \(scratch.path)/export\(step).jsonl"
                case 11: "import \(scratch.path)/export\(step - 1).jsonl"
                case 12: "edit --tag \(tag)"
                case 13: "tag --rename \(tag) t\(random.next() % 4)"
                case 14: "undo --sync"
                case 15: "edit \(anyID()) see #\(anyID()) @\(tag)"
                case 16: "import \(try Self.otherProgramsFile(step, tag: tag, in: scratch.path))"
                default: "edit \(anyID()) --date 2001-01-\(10 + random.next() % 20) moved @\(tag)"
                }
            tagged += line.contains("@") || line.hasPrefix("tag") ? 1 : 0
            let done = session.step(line, counting: &worked)
            #expect(
                done.outcome.worked || done.importsMissingFile || Self.mayBeRefused(done.verb, done.outcome.refusal),
                "'\(line)' gave \(done.outcome) (seed \(seed), step \(step))")
            for store in stores {
                #expect(try stale(store) == 0, "after '\(line)' (seed \(seed), step \(step))")
                #expect(try miscounted(store) == [], "after '\(line)' (seed \(seed), step \(step))")
                let facts = try misjudged(store)
                #expect(facts.misjudged == [], "after '\(line)' (seed \(seed), step \(step))")
                named += facts.named
                linked += facts.linked
            }
        }
        #expect(tagged > 20)
        #expect(named > 0 && linked > 0)
        #expect(["undo", "sync", "edit", "tag"].allSatisfy { worked[$0, default: 0] > 0 }, "\(worked)")
        let tagsInRows = try stores[0].notebook.store.database.prepare(
            "SELECT count(*) FROM memo WHERE tag_names <> ''"
        ).scalarInt([])
        #expect((tagsInRows ?? 0) > 0)
    }

    /// A file of another program's records, without versions (each is named by its state):
    /// one links to a memo by uuid, one carries an explicit tag, one its tag inline.
    static func otherProgramsFile(_ step: Int, tag: String, in folder: String) throws -> String {
        let path = "\(folder)/other\(step).jsonl"
        let lines = [
            #"{"content": "other \#(step) see memo:00000000-0000-4000-8000-00000000000\#(step % 10)"}"#,
            #"{"content": "other \#(step) tagged", "tags": ["\#(tag)"]}"#,
            #"{"content": "other \#(step) @\#(tag) inline", "tags": ["\#(tag)", "x"]}"#
        ]
        try (lines.joined(separator: "\n") + "\n").write(toFile: path, atomically: true, encoding: .utf8)
        return path
    }

    /// The refusals a step may meet: an undo or redo with nothing it may take back, an untag
    /// of a tag the memo does not carry apart from its text, a rename of a tag no memo
    /// carries. Every other step must work.
    static func mayBeRefused(_ verb: String, _ refusal: StoreRefusal?) -> Bool {
        switch (verb, refusal) {
        case ("undo", let refusal?), ("redo", let refusal?): refusal.isUndoOrRedoRefusal
        case ("untag", .tagNotFound?), ("untag", .tagInText?): true
        case ("tag", .unknownTag?): true
        default: false
        }
    }

    /// A store from before version 9 is given its memos' names by the migration.
    @Test func theMigrationFillsTheNames() throws {
        let reopened = try ScriptedNotebook.migrated(
            file: scratch.file("old.sqlite"), after: ["add one @a @b", "add two", "tag 2 c"],
            downgrade: ScriptedNotebook.downgradeToVersion11
                + "DROP TABLE memo_link; ALTER TABLE memo DROP COLUMN tag_names; PRAGMA user_version = 8;")
        #expect(try stale(reopened) == 0)
        let listing = try reopened.run("list --asc")
        #expect(listing.contains("one @a @b") && listing.contains("two  @c"), "\(listing)")
    }

    /// Names are split where the spaces between them stand, though a space makes one
    /// character with a name that starts with a mark (`́x`) or ends in one that joins what
    /// follows (`xൎ`): `show`, `search` and the Markdown export gave `["a ́x"]`, which did not
    /// import back. A name that starts with a mark is typed with its `@` too.
    @Test func namesBesideMarksStayApart() throws {
        let session = try ScriptedNotebook()
        try session.run("add prepend @x\u{0D4E} @y")
        try session.run("add mark @a @\u{0301}x")
        try session.run("tag 2 @\u{0301}z")
        #expect(try session.json("show 1").contains(#""tags":["x\#u{0D4E}","y"]"#))
        #expect(try session.json("show 2").contains(#""tags":["a","\#u{0301}x","\#u{0301}z"]"#))
        #expect(try session.json("search prepend").contains(#""tags":["x\#u{0D4E}","y"]"#))
        #expect(try session.json("search @\u{0301}x").contains(#""content":"mark @a @\#u{0301}x""#))
        let file = scratch.path + "/marks.md"
        try session.run("export \(file)")
        let copy = try ScriptedNotebook()
        try copy.run("import \(file)")
        #expect(try copy.dump() == session.dump())
    }
}
