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

    /// What YAML editors write: a byte-order mark before the block, a comment after a
    /// value, quoted items of a flow list (commas and spaces inside the quotes).
    @Test func frontMatterReadsAsYAMLEditorsWriteIt() throws {
        try note(
            "notes/a.md",
            "\u{FEFF}---\ndate: 2024-03-01 # the day\ntags: [\"#one\", 'two', three] # mine\n---\nText\n")
        let session = try ScriptedNotebook()
        try session.run("import \(scratch.file("notes"))")
        let memo = try memo(session, content: "Text")
        #expect(memo["content"] as? String == "Text")
        #expect(memo["insertDate"] as? String == "2024-03-01T00:00:00.000Z")
        #expect(memo["tags"] as? [String] == ["one", "three", "two"])
        #expect(FrontMatter.split("---\ntags: [\"a b\", \"c,d\", 'it''s']\n---\n").0.tags == ["a b", "c,d", "it's"])
        #expect(FrontMatter.split("---\nid: \"x # y\" # z\n---\n").0.id == "x # y")
    }

    @Test func aQuotedTagMemoCannotTakeIsNamedWithoutItsQuotes() throws {
        try note("notes/a.md", "---\ntags: [\"a b\", c]\n---\nText\n")
        let session = try ScriptedNotebook()
        #expect {
            try session.run("import \(scratch.file("notes"))")
        } throws: { error in
            errorReport(error)
                == "\(scratch.file("notes/a.md")): error: invalid tag 'a b': use letters, digits, '_' and '-'"
        }
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
                == "{\"added\":0,\"updated\":0,\"skipped\":3,\"empty\":0,\"addedUnderNewUUID\":0,\"alreadyThere\":3,\"notNewer\":0,"
                + "\"source\":\"markdown\",\"folder\":\"\(folder)\",\"notes\":3,\"leftOut\":1,"
                + "\"leftOutNames\":[\"ideas/sketch.png\"]}\n")
    }

    @Test func reimportingAFolderAddsNothingAndAChangedNoteUpdatesItsMemo() throws {
        let folder = try notebookFolder()
        let session = try ScriptedNotebook()
        try session.run("import \(folder)")
        let before = try memos(session)
        #expect(
            try session.run("import \(folder)").hasSuffix(": 0 added, 0 updated, 3 skipped (3 already in the store)\n"))
        #expect(try memos(session).map { $0["uuid"] as? String } == before.map { $0["uuid"] as? String })

        try note("notes/ideas/a.md", "# Ay\nedited\n", modified: 1_709_600_000)
        try note("notes/ideas/b.md", "---\ndate: 2024-03-02\nid: b7x2\n---\n# Bee\nedited\n", modified: 1_709_600_000)
        #expect(
            try session.run("import \(folder)").hasSuffix(": 0 added, 2 updated, 1 skipped (1 already in the store)\n"))
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
                == "\(scratch.file("notes/b.md")): error: the note \(scratch.file("notes/a.md")) has the same front matter id"
        }
        #expect(try session.run("count") == "0\n")
    }

    /// A link to another note of the folder is that note twice: the failure names both.
    @Test func aLinkToANoteWithAnIdNamesTheNoteItRepeats() throws {
        try note("notes/a.md", "---\nid: same\n---\nA\n")
        try FileManager.default.createSymbolicLink(atPath: scratch.file("notes/b.md"), withDestinationPath: "a.md")
        let session = try ScriptedNotebook()
        #expect {
            try session.run("import \(scratch.file("notes"))")
        } throws: { error in
            errorReport(error)
                == "\(scratch.file("notes/b.md")): error: the note \(scratch.file("notes/a.md")) has the same front matter id"
        }
    }

    /// A link that leads to no file, or to something other than a file, is left out as the
    /// file it is named; only a link to a folder is named as a folder.
    @Test func brokenLinksAreLeftOutAsFiles() throws {
        try note("notes/a.md", "# A\n")
        try FileManager.default.createSymbolicLink(
            atPath: scratch.file("notes/dangling.md"), withDestinationPath: "nowhere.md")
        try FileManager.default.createSymbolicLink(
            atPath: scratch.file("notes/zero.md"), withDestinationPath: "/dev/zero")
        let session = try ScriptedNotebook()
        #expect(
            try session.run("import \(scratch.file("notes"))").hasPrefix(
                "imported 1 record from 1 Markdown note in \(scratch.file("notes")) "
                    + "(2 other files left out: dangling.md, zero.md)"))
    }

    /// A note larger than a memo holds fails the import with the one limit, 1 MiB.
    @Test(arguments: [(1 << 20) + 1, (2 << 20) + 1])
    func aNoteOverAMemosLimitFailsWithThatLimit(_ size: Int) throws {
        let path = try note("notes/big.md", String(repeating: "a", count: size))
        let session = try ScriptedNotebook()
        #expect {
            try session.run("import \(scratch.file("notes"))")
        } throws: { error in
            errorReport(error) == "\(path): error: the note is \(size) bytes; the limit is 1048576 (1 MiB)"
        }
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

    // MARK: One note, one memo

    /// The same note reached as a file, through its folder and through its parent folder is
    /// one memo: a note without an `id:` is named by its path under the folder imported, and
    /// a note whose name is new here but which repeats a memo (text, tags, insert date) is
    /// already in the store.
    @Test func aNoteReachedThroughAnotherRootAddsNothing() throws {
        let file = try note("n/sub/w.md", "---\ndate: 2026-03-29\n---\nhello\n", modified: 1_800_000_000)
        let session = try ScriptedNotebook()
        #expect(try session.run("import \(file)").hasSuffix(": 1 added, 0 updated, 0 skipped\n"))
        #expect(
            try session.run("import \(scratch.file("n"))")
                .hasSuffix(": 0 added, 0 updated, 1 skipped (1 already in the store)\n"))
        #expect(
            try session.run("import \(scratch.file("n/sub"))")
                .hasSuffix(": 0 added, 0 updated, 1 skipped (1 already in the store)\n"))
        #expect(try memos(session).count == 1)
    }

    /// Two notes of one folder with the same text and date are two memos all the same.
    @Test func twoLikeNotesOfOneFolderAreTwoMemos() throws {
        try note("n/a.md", "---\ndate: 2026-03-29\n---\n# Todo\n", modified: 1_800_000_000)
        try note("n/b.md", "---\ndate: 2026-03-29\n---\n# Todo\n", modified: 1_800_000_000)
        let session = try ScriptedNotebook()
        #expect(try session.run("import \(scratch.file("n"))").hasSuffix(": 2 added, 0 updated, 0 skipped\n"))
    }

    /// A note's date changed in the note is its memo moved: still one memo, at the new date.
    @Test func aNoteWhoseDateChangedMovesItsMemo() throws {
        try note("n/w.md", "---\ndate: 2026-03-29\n---\nhello\n", modified: 1_800_000_000)
        let session = try ScriptedNotebook()
        try session.run("import \(scratch.file("n"))")
        let uuid = try memos(session).first?["uuid"] as? String
        try note("n/w.md", "---\ndate: 2026-03-20 10:00\n---\nhello\n", modified: 1_800_000_100)
        #expect(try session.run("import \(scratch.file("n"))").hasSuffix(": 0 added, 1 updated, 0 skipped\n"))
        let after = try memos(session)
        #expect(after.count == 1)
        #expect(after.first?["uuid"] as? String == uuid)
        #expect(after.first?["insertDate"] as? String == "2026-03-20T10:00:00.000Z")
    }

    /// Front matter added to a note dated by its file dates its memo: the memo moves.
    @Test func frontMatterAddedToANoteUpdatesItsMemo() throws {
        try note("n/w.md", "hello\n", modified: 1_800_000_000)
        let session = try ScriptedNotebook()
        try session.run("import \(scratch.file("n"))")
        try note("n/w.md", "---\ndate: 2026-03-20\ntags: [x]\n---\nhello\n", modified: 1_800_000_100)
        #expect(try session.run("import \(scratch.file("n"))").hasSuffix(": 0 added, 1 updated, 0 skipped\n"))
        let after = try memos(session)
        #expect(after.count == 1)
        #expect(after.first?["insertDate"] as? String == "2026-03-20T00:00:00.000Z")
        #expect(after.first?["tags"] as? [String] == ["x"])
    }

    /// A note unchanged since the last import, and one edited here since, are skipped, each
    /// for its reason.
    @Test func skippedNotesSayWhy() throws {
        // Written in 1999: the session's clock edits in 2000, later.
        try note("n/a.md", "---\ndate: 1999-03-29\n---\nAy\n", modified: 930_000_000)
        try note("n/b.md", "---\ndate: 1999-03-29\n---\nBee\n", modified: 930_000_000)
        let session = try ScriptedNotebook()
        try session.run("import \(scratch.file("n"))")
        try session.run("edit 2 Bee edited here")
        #expect(
            try session.run("import \(scratch.file("n"))")
                .hasSuffix(": 0 added, 0 updated, 2 skipped (1 already in the store, 1 not newer than its memo here)\n")
        )
    }

    // MARK: One date rule

    /// A wall-clock time that summer time skips (02:30 when Berlin's clocks go from 02:00
    /// to 03:00) or shows twice (02:30 when they go back) is the instant `add --date` reads.
    @Test(arguments: ["2026-03-29 02:30", "2026-10-25 02:30", "2026-03-29 12:00"])
    func aLocalTimeIsTheInstantAddDateReads(_ time: String) throws {
        let berlin = DisplayTime(timeZone: TimeZone(identifier: "Europe/Berlin")!)
        let (day, clock) = (time.prefix(10), time.suffix(5))
        try note("n/w.md", "---\ndate: \(time)\n---\nnote\n", modified: 1_900_000_000)
        let export = try scratch.write(
            "{\"entries\": [{\"title\": \"jrnl.\", \"date\": \"\(day)\", \"time\": \"\(clock)\"}]}\n",
            to: "export.json")
        let session = try ScriptedNotebook(displayTime: berlin)
        try session.run(["add --date \"\(time)\" added", "import \(scratch.file("n"))", "import \(export)"])
        let dates = Set(try memos(session).map { $0["insertDate"] as? String })
        #expect(dates.count == 1, "\(dates)")
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
                == "imported 3 records from a jrnl export: 0 added, 0 updated, 3 skipped (3 already in the store)\n")
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
        #expect(
            try session.run("import \(path)").hasSuffix(": 0 added, 0 updated, 3 skipped (3 already in the store)\n"))
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

    /// A byte-order mark, as editors on Windows write one, starts no file's records.
    @Test(arguments: [
        "{\"entries\": [{\"title\": \"T.\", \"date\": \"2024-03-01\", \"time\": \"09:00\"}]}",
        "[{\"content\": \"T.\"}]", "{\"content\": \"T.\"}", "T."
    ])
    func aByteOrderMarkIsPassedOver(_ text: String) throws {
        let path = try scratch.write("\u{FEFF}" + text + "\n", to: "bom.txt")
        let session = try ScriptedNotebook()
        #expect(try session.run("import \(path)").contains(": 1 added"))
        #expect(try memos(session).map { $0["content"] as? String } == ["T."])
    }

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

    /// Another memo store is synced, not imported; this store's own file is neither.
    @Test func aMemoStoreIsNotImportedButSynced() throws {
        let other = scratch.file("other.db")
        try ScriptedNotebook(file: other).run("add in the other store")
        let mine = scratch.file("mine.db")
        let session = try ScriptedNotebook(file: mine)
        try session.run("add mine")
        for (path, message) in [
            (
                other,
                "\(other) is a memo store: 'memo sync \(other)' merges two stores (import reads other programs' files)"
            ),
            (mine, "\(mine) is this store's own file: there is nothing to import")
        ] {
            let result = session.attempt("import \(path)")
            #expect(throws: (any Error).self) { try result.get() }
            if case .failure(let error) = result {
                #expect(errorMessage(error) == message)
                #expect(ExitStatus.of(error, commandLine: true) == .failure)
            }
        }
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
