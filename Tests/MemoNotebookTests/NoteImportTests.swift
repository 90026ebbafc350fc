import Foundation
import MemoNotebookTestSupport
import MemoStore
import MemoTestSupport
import Testing

@testable import MemoNotebook

/// Imports from the tools people leave: a folder of Markdown notes (zk, nb, Obsidian) and
/// jrnl's JSON export, told by their content.
@Suite("Imports from jrnl and folders of notes")
struct NoteImportTests {
    let scratch = TemporaryFolder()
    /// A zone with daylight-saving time, so wall-clock times are not UTC's.
    static let paris = DisplayTime(timeZone: TimeZone(identifier: "Europe/Paris")!)

    /// Writes a note under the scratch folder, making its folders; `modified` sets its
    /// modification time (seconds since 1970).
    @discardableResult
    private func note(_ relative: String, _ text: String, modified: TimeInterval? = nil) throws -> String {
        let path = scratch.file(relative)
        try FileManager.default.createDirectory(
            atPath: (path as NSString).deletingLastPathComponent, withIntermediateDirectories: true)
        try text.write(toFile: path, atomically: false, encoding: .utf8)
        if let modified {
            try FileManager.default.setAttributes(
                [.modificationDate: Date(timeIntervalSince1970: modified)], ofItemAtPath: path)
        }
        return path
    }

    /// The memos as `{"uuid":…,"content":…,"insertDate":…,…}` lines, oldest first, as
    /// objects.
    private func memos(_ session: ScriptedNotebook) throws -> [[String: Any]] {
        try session.dump().map { line in
            try #require(JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any])
        }
    }

    private func memo(_ session: ScriptedNotebook, content prefix: String) throws -> [String: Any] {
        try #require(try memos(session).first { ($0["content"] as? String)?.hasPrefix(prefix) == true })
    }

    // MARK: Front matter

    @Test(arguments: [
        ("date: 2024-03-01", "2024-02-29T23:00:00.000Z"),
        ("date: 2024-03-01 09:15", "2024-03-01T08:15:00.000Z"),
        ("date: 2024-03-01 09:15:30", "2024-03-01T08:15:30.000Z"),
        ("date: \"2024-07-01T09:15\"", "2024-07-01T07:15:00.000Z"),
        ("date: 2024-03-01T09:15:00Z", "2024-03-01T09:15:00.000Z"),
        ("created: '2024-03-01T09:15:00+05:00'", "2024-03-01T04:15:00.000Z"),
        ("created: 2024-03-01\ndate: 2024-03-02", "2024-03-01T23:00:00.000Z"),
        // The day daylight-saving time starts in Paris: noon is 10:00 UTC, not 11:00.
        ("date: 2024-03-31 12:00", "2024-03-31T10:00:00.000Z")
    ])
    func frontMatterDatesANoteOnTheDisplayClock(_ field: String, _ expected: String) throws {
        try note("notes/a.md", "---\n\(field)\ntitle: A\n---\n\n# A\nbody\n", modified: 1_800_000_000)
        let session = try ScriptedNotebook(displayTime: Self.paris)
        try session.run("import \(scratch.file("notes"))")
        let memo = try memo(session, content: "# A")
        #expect(memo["insertDate"] as? String == expected)
        #expect(memo["content"] as? String == "# A\nbody", "the front matter is taken out of the text")
    }

    @Test(arguments: [
        ("tags:\n  - work\n  - \"#idea\"\n- '@home'", ["home", "idea", "work"]),
        ("tags: [work, \"#idea\", '@home']", ["home", "idea", "work"]),
        ("tags: work #idea @home", ["home", "idea", "work"]),
        ("tags: work, idea,home", ["home", "idea", "work"]),
        ("tags: \"#work #idea @home\"", ["home", "idea", "work"]),
        ("tags:", []),
        ("tags: []", [])
    ])
    func frontMatterTagsTagTheMemo(_ field: String, _ expected: [String]) throws {
        try note("notes/a.md", "---\ndate: 2024-03-01\n\(field)\n---\nText with #inline and #12 kept\n")
        let session = try ScriptedNotebook()
        try session.run("import \(scratch.file("notes"))")
        let memo = try memo(session, content: "Text")
        #expect(memo["tags"] as? [String] == expected)
        #expect(
            memo["content"] as? String == "Text with #inline and #12 kept",
            "inline #words are text as written, not tags")
    }

    @Test func frontMatterSplitsOnlyAClosedBlockAtTheStart() {
        #expect(FrontMatter.split("---\ntags: a\n---\r\n\r\nText\r\n").body == "Text")
        #expect(FrontMatter.split("---\ntags: a\n...\nText").0.tags == ["a"])
        #expect(FrontMatter.split("---\nnot closed\n").body == "---\nnot closed")
        #expect(FrontMatter.split("Text\n---\ndate: 2024-03-01\n---\n").0 == FrontMatter())
    }

    @Test func aNoteWithoutADateIsDatedByItsModificationTime() throws {
        try note("notes/plain.md", "# Plain\nno front matter\n", modified: 1_709_284_500)
        let session = try ScriptedNotebook()
        try session.run("import \(scratch.file("notes"))")
        let memo = try memo(session, content: "# Plain")
        #expect(memo["insertDate"] as? String == "2024-03-01T09:15:00.000Z")
        #expect(memo["updateDate"] is NSNull, "a note never edited since it was written starts unedited")
    }

    // MARK: Folders

    /// zk's layout: a `.zk` folder, notes in subfolders; Obsidian's `.obsidian`, a `.git`,
    /// an attachment.
    private func notebookFolder() throws -> String {
        try note("notes/.zk/config.toml", "[note]\nfilename = \"{{id}}\"\n")
        try note("notes/.obsidian/app.json", "{}\n")
        try note("notes/.git/HEAD", "ref: refs/heads/main\n")
        try note("notes/.hidden.md", "tool state\n")
        try note("notes/journal/2024-03-01.md", "---\ndate: 2024-03-01 09:15\ntags: [daily]\n---\n# Friday\n")
        try note("notes/ideas/b.md", "---\ndate: 2024-03-02\nid: b7x2\n---\n# Bee\n", modified: 1_709_500_000)
        try note("notes/ideas/a.md", "# Ay\n", modified: 1_709_400_000)
        try note("notes/ideas/sketch.png", "not a note")
        return scratch.file("notes")
    }

    @Test func aFolderIsOneMemoPerNoteAndHiddenFoldersArePassedOver() throws {
        let folder = try notebookFolder()
        let session = try ScriptedNotebook()
        #expect(
            try session.run("import \(folder)")
                == "imported 3 records from 3 Markdown notes in \(folder) (1 other file left out: ideas/sketch.png): "
                + "3 added, 0 updated, 0 skipped\n")
        #expect(try memos(session).map { $0["content"] as? String } == ["# Friday", "# Bee", "# Ay"])
        #expect(
            try session.json("import \(folder)")
                == "{\"added\":0,\"updated\":0,\"skipped\":3,\"empty\":0,\"addedUnderNewUUID\":0,\"alreadyThere\":0,"
                + "\"source\":\"markdown\",\"folder\":\"\(folder)\",\"notes\":3,\"leftOut\":1,"
                + "\"leftOutNames\":[\"ideas/sketch.png\"]}\n")
    }

    @Test func reimportingAFolderAddsNothingAndAChangedNoteUpdatesItsMemo() throws {
        let folder = try notebookFolder()
        let session = try ScriptedNotebook()
        try session.run("import \(folder)")
        let before = try memos(session)
        #expect(try session.run("import \(folder)").hasSuffix(": 0 added, 0 updated, 3 skipped\n"))
        #expect(try memos(session).map { $0["uuid"] as? String } == before.map { $0["uuid"] as? String })

        try note("notes/ideas/a.md", "# Ay\nedited\n", modified: 1_709_600_000)
        try note("notes/ideas/b.md", "---\ndate: 2024-03-02\nid: b7x2\n---\n# Bee\nedited\n", modified: 1_709_600_000)
        #expect(try session.run("import \(folder)").hasSuffix(": 0 added, 2 updated, 1 skipped\n"))
        let after = try memos(session)
        #expect(after.map { $0["uuid"] as? String } == before.map { $0["uuid"] as? String })
        #expect(after.map { $0["content"] as? String } == ["# Friday", "# Bee\nedited", "# Ay\nedited"])
        #expect(after[2]["insertDate"] as? String == before[2]["insertDate"] as? String)
        #expect(after[2]["updateDate"] as? String == "2024-03-05T00:53:20.000Z")
    }

    @Test func aNoteThatCannotBeReadFailsTheWholeImportNamingIt() throws {
        let folder = try notebookFolder()
        let bad = scratch.file("notes/journal/bad.md")
        try Data([0x41, 0xFF, 0x0A]).write(to: URL(fileURLWithPath: bad))
        let session = try ScriptedNotebook()
        #expect {
            try session.run("import \(folder)")
        } throws: { error in
            errorReport(error) == "\(bad): error: cannot read the note: it is not valid UTF-8 text"
        }
        #expect(try session.run("count") == "0\n", "the store is unchanged")
    }

    @Test func twoNotesWithOneIdFailTheImportAtTheSecond() throws {
        try note("notes/a.md", "---\nid: same\n---\nA\n")
        try note("notes/b.md", "---\nid: same\n---\nB\n")
        let session = try ScriptedNotebook()
        #expect {
            try session.run("import \(scratch.file("notes"))")
        } throws: { error in
            errorReport(error)
                == "\(scratch.file("notes/b.md")): error: an earlier note of the folder has the same front matter id"
        }
        #expect(try session.run("count") == "0\n")
    }

    @Test func aLinkToAFolderIsNotFollowed() throws {
        try note("notes/a.md", "# A\n")
        try FileManager.default.createSymbolicLink(atPath: scratch.file("notes/loop"), withDestinationPath: "..")
        let session = try ScriptedNotebook()
        #expect(
            try session.run("import \(scratch.file("notes"))").hasPrefix(
                "imported 1 record from 1 Markdown note in \(scratch.file("notes")) (1 other file left out: loop/)"))
    }

    @Test func anEmptyNoteIsCountedNotImported() throws {
        try note("notes/a.md", "---\ntags: [x]\n---\n\n")
        let session = try ScriptedNotebook()
        #expect(try session.run("import \(scratch.file("notes"))").hasSuffix("0 skipped, 1 without text\n"))
    }

    // MARK: jrnl

    /// `jrnl --format json` as jrnl 4.6 writes it (`tagsymbols: '#@'`).
    static let jrnlExport = """
        {
          "tags": {
            "@health": 1,
            "#12": 1
          },
          "entries": [
            {
              "title": "Morning run.",
              "body": "Felt good @health\\n",
              "date": "2024-03-01",
              "time": "09:15",
              "tags": [
                "@health"
              ],
              "starred": false
            },
            {
              "title": "Starred one.",
              "body": "",
              "date": "2024-03-31",
              "time": "12:00",
              "tags": [],
              "starred": true
            },
            {
              "title": "See #12.",
              "body": "Same day",
              "date": "2024-03-31",
              "time": "12:00",
              "tags": ["#12"],
              "starred": false
            }
          ]
        }

        """

    @Test(arguments: ["export.json", "journal-export", "export.jsonl"])
    func aJrnlExportIsToldByItsContent(_ name: String) throws {
        let path = try scratch.write(Self.jrnlExport, to: name)
        let session = try ScriptedNotebook(displayTime: Self.paris)
        #expect(
            try session.run("import \(path)")
                == "imported 3 records from a jrnl export: 3 added, 0 updated, 0 skipped\n")
        let memos = try memos(session)
        #expect(
            memos.map { $0["content"] as? String } == [
                "Morning run.\nFelt good @health", "Starred one.", "See #12.\nSame day"
            ])
        #expect(
            memos.map { $0["insertDate"] as? String }
                == ["2024-03-01T08:15:00.000Z", "2024-03-31T10:00:00.000Z", "2024-03-31T10:00:00.000Z"])
        #expect(memos.map { $0["tags"] as? [String] } == [["health"], ["starred"], ["12"]])
        #expect(
            try session.run("import \(path)")
                == "imported 3 records from a jrnl export: 0 added, 0 updated, 3 skipped\n")
    }

    @Test func aJrnlEntryWithoutADateFailsAtItsLine() throws {
        let path = try scratch.write(
            "{\"entries\": [\n  {\"title\": \"ok\", \"date\": \"2024-03-01\", \"time\": \"09:00\"},\n  {\"title\": \"x\"}\n]}\n",
            to: "export.json")
        let session = try ScriptedNotebook()
        #expect {
            try session.run("import \(path)")
        } throws: { error in
            errorReport(error) == "\(path):3: error: a jrnl entry needs a \"date\" of the form YYYY-MM-DD"
        }
        #expect(try session.run("count") == "0\n")
    }

    /// Two entries of one minute with one title (a repeated "Morning.") are two memos, each
    /// found again by a second import.
    @Test func repeatedEntriesOfOneMinuteAreEachTheirOwnMemo() throws {
        let morning = "{\"title\": \"Morning.\", \"date\": \"2024-03-01\", \"time\": \"09:00\", \"body\": "
        let path = try scratch.write(
            "{\"entries\": [\(morning)\"a\"}, \(morning)\"b\"}, \(morning)\"a\"}]}\n", to: "export.json")
        let session = try ScriptedNotebook()
        #expect(try session.run("import \(path)").hasSuffix(": 3 added, 0 updated, 0 skipped\n"))
        #expect(try session.run("import \(path)").hasSuffix(": 0 added, 0 updated, 3 skipped\n"))
        #expect(try memos(session).map { $0["content"] as? String } == ["Morning.\na", "Morning.\nb", "Morning.\na"])
    }

    /// The export is read entry by entry: the members around `entries` are skipped, whatever
    /// they hold, and a broken object fails at its line.
    @Test(arguments: [
        (
            "{\"tags\": {\"@a\\\"}\": 1, \"n\": [1, {\"x\": \"]\"}]}, \"v\": null,\n\"entries\": [\(NoteImportTests.entry)],"
                + " \"after\": [true, 2.5], \"s\": \"}\"}\n", nil
        ),
        ("{\"entries\": [\(NoteImportTests.entry)]", "3: error: the JSON object is not closed with '}'"),
        ("{\"entries\": [\(NoteImportTests.entry)]} x", "3: error: unexpected text after the array"),
        ("{\"tags\": {}}", "1: error: the JSON object has no \"entries\" array")
    ])
    func aJrnlExportIsReadEntryByEntry(_ text: String, _ failure: String?) throws {
        let path = try scratch.write(text, to: "export.json")
        let session = try ScriptedNotebook()
        let result = session.attempt("import \(path) --format jrnl")
        if let failure {
            #expect(throws: (any Error).self) { try result.get() }
            if case .failure(let error) = result { #expect(errorReport(error) == "\(path):\(failure)") }
        } else {
            #expect(try result.get() == "imported 1 record from a jrnl export: 1 added, 0 updated, 0 skipped\n")
        }
    }

    static let entry = "\n{\"title\": \"T.\", \"body\": \"b\", \"date\": \"2024-03-01\", \"time\": \"09:00\"}\n"

    // MARK: Detection

    @Test func memosOwnJSONStaysWhatItIsWhateverItsName() throws {
        let source = try ScriptedNotebook()
        try source.run("fixture sample")
        let lines = scratch.file("lines.json")
        try source.run("export \(lines) --format jsonl")
        let array = scratch.file("array.jsonl")
        try source.run("export \(array) --format json")
        for path in [lines, array] {
            let target = try ScriptedNotebook()
            #expect(try target.run("import \(path)").hasPrefix("imported 20 records: 20 added"))
        }
    }

    @Test func aNoteFileWithFrontMatterIsOneMemo() throws {
        let path = try note("one.md", "---\ndate: 2024-03-01\ntags: a\n---\n# One\n\n- not an item memo\n")
        let session = try ScriptedNotebook()
        #expect(
            try session.run("import \(path)")
                == "imported 1 record from a Markdown note: 1 added, 0 updated, 0 skipped\n")
        #expect(try memo(session, content: "# One")["content"] as? String == "# One\n\n- not an item memo")
    }

    @Test func aFolderTakesOnlyTheMarkdownFormat() throws {
        let folder = try notebookFolder()
        let session = try ScriptedNotebook()
        #expect(try session.run("import \(folder) --format markdown").hasPrefix("imported 3 records from 3 Markdown"))
        #expect {
            try session.run("import \(folder) --format jsonl")
        } throws: { error in
            errorMessage(error)
                == "cannot import \(folder) as jsonl: it is a folder (of Markdown notes: --format markdown)"
        }
    }
}
