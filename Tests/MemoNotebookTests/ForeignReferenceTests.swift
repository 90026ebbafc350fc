import Foundation
import MemoNotebookTestSupport
import MemoStore
import MemoTestSupport
import Testing

@testable import MemoNotebook

/// Links only where someone wrote one (docs/REFERENCE.md, Links): a record from another program
/// makes no link from a bare `#ID` ("Rule #1", "issue #2", "#1 SMP"), through later edits
/// too; memo's own export keeps its links.
@Suite("References of foreign records")
struct ForeignReferenceTests {
    let scratch = TemporaryFolder()

    static let texts = ["Rule #1: never panic", "fixed in issue #2", "Linux 5.10 #1 SMP Debian"]

    /// A store where memos #1 and #2 exist, so a bare `#1` or `#2` could lead to them.
    func storeWithTargets() throws -> ScriptedNotebook {
        let session = try ScriptedNotebook()
        try session.run(["add first memo", "add second memo"])
        return session
    }

    /// Each way another program's texts come in: a file or folder, and the import's arguments.
    func foreignSources() throws -> [(name: String, path: String)] {
        let jsonl = scratch.file("plain.jsonl")
        try Self.texts.map { #"{"content":"\#($0)"}"# + "\n" }.joined().write(
            toFile: jsonl, atomically: true, encoding: .utf8)
        let json = scratch.file("plain.json")
        try ("[" + Self.texts.map { #"{"content":"\#($0)"}"# }.joined(separator: ",") + "]").write(
            toFile: json, atomically: true, encoding: .utf8)
        let jrnl = scratch.file("jrnl.json")
        try
            (#"{"tags":{},"entries":["#
            + Self.texts.enumerated().map {
                #"{"title":"Entry \#($0.offset).","body":"\#($0.element)","date":"2024-03-0\#($0.offset + 1)","time":"09:00","tags":[],"starred":false}"#
            }.joined(separator: ",") + "]}").write(toFile: jrnl, atomically: true, encoding: .utf8)
        let folder = scratch.file("notes")
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        for (index, text) in Self.texts.enumerated() {
            try "# Note \(index)\n\n\(text)\n".write(
                toFile: folder + "/note\(index).md", atomically: true, encoding: .utf8)
        }
        let markdown = scratch.file("elsewhere.md")
        try Self.texts.map { "- \($0)\n" }.joined().write(toFile: markdown, atomically: true, encoding: .utf8)
        let coreData = scratch.file("Memos.sqlite")
        let database = try Database(path: coreData)
        try database.execute(
            """
            CREATE TABLE Z_PRIMARYKEY (Z_ENT INTEGER PRIMARY KEY, Z_NAME VARCHAR, Z_SUPER INTEGER, Z_MAX INTEGER);
            CREATE TABLE Z_METADATA (Z_VERSION INTEGER PRIMARY KEY, Z_UUID VARCHAR(255), Z_PLIST BLOB);
            CREATE TABLE Z_MODELCACHE (Z_CONTENT BLOB);
            INSERT INTO Z_METADATA VALUES (1, 'F1E2D3C4-B5A6-4978-8695-A4B3C2D1E0F9', NULL);
            INSERT INTO Z_PRIMARYKEY VALUES (1, 'MemoEntity', 0, 0);
            CREATE TABLE ZMEMOENTITY (Z_PK INTEGER PRIMARY KEY, Z_ENT INTEGER, Z_OPT INTEGER, ZINSERTDATE TIMESTAMP, ZCONTENT VARCHAR);
            """
                + Self.texts.enumerated().map {
                    "INSERT INTO ZMEMOENTITY VALUES (\($0.offset + 1), 1, 1, 731000000, '\($0.element)');"
                }.joined(separator: "\n"))
        return [
            ("JSON Lines", jsonl), ("JSON", json), ("jrnl", jrnl), ("note folder", folder),
            ("Markdown", markdown), ("Core Data", coreData + " --format coredata")
        ]
    }

    @Test func aBareIDInAForeignRecordLinksNothingThroughEdits() throws {
        for source in try foreignSources() {
            let session = try storeWithTargets()
            try session.run("import \(source.path)")
            let imported = try session.notebook.store.memos(MemoQuery(order: .oldestFirst)).collect().dropFirst(2)
            #expect(imported.count == 3, "\(source.name)")
            for memo in imported {
                #expect(!(try session.run("show \(memo.id)").contains("→")), "\(source.name): \(memo.content)")
            }
            #expect(try session.run("list --links-to 1").isEmpty, "\(source.name)")
            #expect(try session.run("list --links-to 2").isEmpty, "\(source.name)")
            #expect(try session.run("count --orphan") == "5\n", "\(source.name)")
            #expect(!(try session.run("graph").contains("->")), "\(source.name)")
            // An edit that keeps the words keeps them words; a reference it adds is memo's own.
            let rule = try #require(imported.first { $0.content.contains("Rule #1") })
            try session.run(
                "edit \(rule.id) \(Self.quoted(rule.content.replacingOccurrences(of: "never", with: "do not")))")
            #expect(try session.run("list --links-to 1").isEmpty, "\(source.name)")
            let edited = try #require(try session.notebook.store.memo(id: rule.id)).content
            try session.run("edit \(rule.id) \(Self.quoted(edited + ", see #2"))")
            #expect(try session.run("list --links-to 2").hasPrefix("#\(rule.id) "), "\(source.name)")
            #expect(try session.run("list --links-to 1").isEmpty, "\(source.name)")
        }
    }

    /// `text` as one quoted word of the command language.
    static func quoted(_ text: String) -> String {
        "\""
            + text.replacingOccurrences(of: "\\", with: "\\\\").replacingOccurrences(of: "\"", with: "\\\"")
            .replacingOccurrences(of: "\n", with: "\\n") + "\""
    }

    /// A `memo:UUID` is written on purpose: it links from any record.
    @Test func aUUIDInAForeignRecordStillLinks() throws {
        let session = try storeWithTargets()
        let first = try #require(try session.notebook.store.memo(id: 1))
        let file = scratch.file("uuid.jsonl")
        try #"{"content":"see memo:\#(first.uuid) and #2"}"#.appending("\n").write(
            toFile: file, atomically: true, encoding: .utf8)
        try session.run("import \(file)")
        #expect(try session.run("list --links-to 1").contains("see memo:"))
        #expect(try session.run("list --links-to 2").isEmpty)
    }

    /// memo's own export carries `links` for every memo whose text makes a reference, so
    /// its `#ID`s keep their memos through an export and import, in every format; and a memo
    /// exported without references links a `#ID` an edit adds later, as memo's writing does.
    @Test(arguments: ["jsonl", "json", "md"])
    func memosOwnExportKeepsItsLinks(format: String) throws {
        let source = try storeWithTargets()
        try source.run(["add see #1", "add nothing referenced"])
        let file = scratch.file("own.\(format)")
        try source.run("export \(file)")
        let copy = try ScriptedNotebook()
        try copy.run("import \(file)")
        #expect(try copy.run("list --links-to 1").contains("see #1"))
        try copy.run("edit 4 nothing referenced, until #2")
        #expect(try copy.run("list --links-to 2").contains("until #2"))
    }
}
