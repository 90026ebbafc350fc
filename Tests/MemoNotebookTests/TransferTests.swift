import Foundation
import MemoNotebookTestSupport
import MemoStore
import MemoTestSupport
import Testing

@testable import MemoNotebook

@Suite("Import and export")
struct TransferTests {
    let scratch = TemporaryFolder()

    /// A notebook with every kind of memo: several languages, inline and explicit tags, an
    /// edited one, multi-line text with blank and indented lines, and odd characters.
    private func filledNotebook() throws -> ScriptedNotebook {
        let session = try ScriptedNotebook()
        try session.run("fixture sample")
        try session.run("add --tag kept Explicit and @inline tags")
        try session.run("edit 3 Edited text @edited")
        let multiLine =
            "first line\n\n  indented line\n- looks like an item\n## looks like a heading\ntrailing spaces  \n"
        _ = try session.notebook.add(multiLine, tags: [])
        _ = try session.notebook.add("quotes \" and \\ backslash\tand a tab", tags: ["odd"])
        return session
    }

    @Test(arguments: ["jsonl", "json", "md"])
    func exportThenImportIntoAnEmptyStoreGivesTheSameMemos(_ extension: String) throws {
        let source = try filledNotebook()
        let path = scratch.file("all." + `extension`)
        #expect(try source.run("export \(path)") == "exported 23 memos to \(path)\n")
        #expect(
            try FileManager.default.attributesOfItem(atPath: path)[.posixPermissions] as? Int == 0o666 & ~Self.umask(),
            "a new file follows the umask, as any file a command writes")
        let target = try ScriptedNotebook()
        #expect(try target.run("import \(path)") == "imported 23 records: 23 added, 0 updated, 0 skipped\n")
        #expect(try target.dump() == source.dump())
        #expect(
            try target.run("import \(path)")
                == "imported 23 records: 0 added, 0 updated, 23 skipped (23 already in the store)\n")
        #expect(try target.dump() == source.dump())
    }

    /// The process's umask, read without changing it (`umask(2)` would, for every thread).
    private static func umask() throws -> Int {
        let status = try String(contentsOfFile: "/proc/self/status", encoding: .utf8)
        let line = try #require(status.split(separator: "\n").first { $0.hasPrefix("Umask:") })
        return try #require(Int(line.dropFirst(6).trimmingCharacters(in: .whitespaces), radix: 8))
    }

    /// Each copy comes in its own file: a file may name a memo only once. Only a copy edited
    /// later than the memo updates it; no update date is ever made up from an insert date. A
    /// record that cannot be a state of the memo its uuid names (another insert date, or
    /// another text when neither was edited) is another memo: added under a uuid of its own.
    @Test func newerCopiesUpdateOlderOnesAreSkippedAndUnrelatedOnesAreAddedApart() throws {
        let session = try ScriptedNotebook()
        try session.run("add --tag old Original @inline")
        let uuid = "00000000-0000-4000-8000-000000000001"
        let apart = "1 added (1 under a new uuid: its own names another memo here), 0 updated, 0 skipped"
        let copies = [
            ("{\"uuid\":\"\(uuid)\",\"content\":\"Older copy\",\"insertDate\":\"1999-01-01T00:00:00.000Z\"}", apart),
            ("{\"uuid\":\"\(uuid)\",\"content\":\"Same age\",\"insertDate\":\"2000-01-01T00:00:00.000Z\"}", apart),
            (
                "{\"uuid\":\"\(uuid)\",\"content\":\"Original @inline\",\"insertDate\":\"2000-01-01T00:00:00.000Z\"}",
                "0 added, 0 updated, 1 skipped (1 not newer than its memo here)"
            ),
            (
                "{\"uuid\":\"\(uuid.uppercased())\",\"content\":\"Newer copy @fresh\",\"insertDate\":\"2000-01-01T00:00:00.000Z\","
                    + "\"updateDate\":\"2001-02-03T04:05:06.789Z\",\"tags\":[\"fresh\",\"new\"]}",
                "0 added, 1 updated, 0 skipped"
            ),
            (
                "{\"uuid\":\"\(uuid)\",\"content\":\"An older edit\",\"insertDate\":\"2000-01-01T00:00:00.000Z\","
                    + "\"updateDate\":\"2000-06-01T00:00:00.000Z\"}",
                "0 added, 0 updated, 1 skipped (1 not newer than its memo here)"
            )
        ]
        for (index, (record, outcome)) in copies.enumerated() {
            let file = try scratch.write(record + "\n", to: "merge\(index).jsonl")
            #expect(try session.run("import \(file)") == "imported 1 record: \(outcome)\n", "\(record)")
            if outcome == apart {
                #expect(
                    try session.run("import \(file)")
                        == "imported 1 record: 0 added, 0 updated, 1 skipped (1 already in the store)\n",
                    "imported again, the memo added apart is found by its uuid")
            }
        }
        let file = try scratch.write("{\"content\":\"No uuid or date\"}\n", to: "fresh.jsonl")
        #expect(try session.run("import \(file)") == "imported 1 record: 1 added, 0 updated, 0 skipped\n")
        let memo = try #require(try session.notebook.store.memo(id: 1))
        #expect(memo.uuid == uuid)
        #expect(memo.content == "Newer copy @fresh")
        #expect(memo.insertDate == Timestamp(secondsSince1970: 946_684_800), "an update keeps the memo's place")
        #expect(memo.updateDate == Timestamp(millisecondsSince1970: 981_173_106_789))
        #expect(memo.tags == ["fresh", "new"])
        let apartMemos = try [2, 3].map { try #require(try session.notebook.store.memo(id: $0)) }
        #expect(apartMemos.map(\.content) == ["Older copy", "Same age"])
        #expect(Set(apartMemos.map(\.uuid) + [uuid]).count == 3)
        #expect(apartMemos.allSatisfy { $0.updateDate == nil })
        let added = try #require(try session.notebook.store.memo(id: 4))
        #expect(added.content == "No uuid or date" && added.uuid.hasSuffix("-000000000002"))
        #expect(added.insertDate == Timestamp(secondsSince1970: 946_684_801))
    }

    /// Importing a file of records without uuids again adds nothing: a record that repeats a
    /// memo already there (text, tags, and the dates it carries) is skipped, and the summary
    /// says why. A record that differs in any of them is a memo of its own.
    @Test(arguments: [
        (
            "jsonl",
            """
            {"content":"milk @shop"}
            {"content":"dentist","insertDate":"2024-03-01T09:00:00.000Z","tags":["health"]}
            {"content":"edited","insertDate":"2024-03-01T09:00:00.000Z","updateDate":"2024-03-02T09:00:00.000Z"}

            """
        ),
        (
            "json",
            """
            [{"content":"milk @shop"},
             {"content":"dentist","insertDate":"2024-03-01T09:00:00.000Z","tags":["Health"]},
             {"content":"edited","insertDate":"2024-03-01T09:00:00.000Z","updateDate":"2024-03-02T09:00:00.000Z"}]

            """
        ),
        ("md", "milk @shop\n\n## 2024-03-01\n\n- dentist\n- edited\n")
    ])
    func importingRecordsWithoutUUIDsAgainSkipsThoseAlreadyThere(_ format: String, _ text: String) throws {
        let session = try ScriptedNotebook()
        try session.run("add milk @shop")
        let file = try scratch.write(text, to: "again.\(format)")
        #expect(
            try session.run("import \(file)")
                == "imported 3 records: 2 added, 0 updated, 1 skipped (1 already in the store)\n")
        let before = try session.dump()
        #expect(
            try session.run("import \(file)")
                == "imported 3 records: 0 added, 0 updated, 3 skipped (3 already in the store)\n")
        #expect(try session.dump() == before)
        #expect(
            try session.json("import \(file)")
                == #"{"added":0,"updated":0,"skipped":3,"empty":0,"addedUnderNewUUID":0,"alreadyThere":3,"notNewer":0}"#
                + "\n")
        // Another tag, another date or another text is another memo.
        let differing = try scratch.write(
            """
            {"content":"milk @shop","tags":["dairy"]}
            {"content":"dentist","insertDate":"2024-03-01T10:00:00.000Z","tags":["health"]}
            {"content":"Milk @shop"}

            """, to: "differing.jsonl")
        #expect(try session.run("import \(differing)") == "imported 3 records: 3 added, 0 updated, 0 skipped\n")
    }

    /// A file that names one memo twice, in any case, fails at the second record.
    @Test(arguments: ["00000000-0000-4000-8000-0000000000aa", "00000000-0000-4000-8000-0000000000AA"])
    func aUUIDTwiceInOneFileFailsAtTheSecond(_ second: String) throws {
        let session = try ScriptedNotebook()
        let file = try scratch.write(
            """
            [
            {"uuid":"00000000-0000-4000-8000-0000000000aa","content":"one"},
            {"uuid":"\(second)","content":"two","updateDate":"2030-01-01T00:00:00.000Z"}
            ]
            """, to: "twice.json")
        #expect {
            try session.run("import \(file)")
        } throws: { error in
            errorReport(error)
                == "\(file):3: error: the uuid \(second.lowercased()) is named by an earlier record of this file"
        }
        #expect(try session.notebook.store.count() == 0)
    }

    /// JSON Lines skips lines of white space alone (Unicode's too), and a line that is
    /// neither white space nor a record fails at its number.
    @Test func jsonLinesSkipsBlankLinesAndFailsAtAStrayOne() throws {
        let session = try ScriptedNotebook()
        let blanks = try scratch.write(
            "\n{\"content\":\"one\"}\n \t\n\u{3000}\u{A0}\n{\"content\":\"two\"}\n", to: "blanks.jsonl")
        #expect(try session.run("import \(blanks)") == "imported 2 records: 2 added, 0 updated, 0 skipped\n")
        let stray = try scratch.write("{\"content\":\"three\"}\n \u{3000}x\n", to: "stray.jsonl")
        #expect { try session.run("import \(stray)") } throws: { error in
            errorReport(error) == "\(stray):2: error: the line is not valid JSON"
        }
        #expect(try session.notebook.store.count() == 2)
    }

    /// A malformed record fails the whole import at its line, and the store is as it was.
    @Test(arguments: [
        (
            "{\"content\":\"one\"}\n{\"content\":\"two\"}\n{\"content\":\"three\"", "jsonl", 3,
            "the line is not valid JSON"
        ),
        ("{\"content\":\"one\"}\n{\"text\":\"two\"}\n", "jsonl", 2, "the record has no \"content\""),
        ("{\"content\":\"one\",\"uuid\":\"nope\"}\n", "jsonl", 1, "invalid uuid 'nope'"),
        (
            "{\"content\":\"one\",\"insertDate\":\"yesterday\"}\n", "jsonl", 1,
            "invalid \"insertDate\" 'yesterday': use an ISO 8601 instant such as 2024-03-01T09:30:00.000Z"
        ),
        ("{\"content\":\"   \"}\n", "jsonl", 1, "memo text is empty"),
        (
            "{\"content\":\"x\",\"tags\":[\"bad tag!\"]}\n", "jsonl", 1,
            "invalid tag 'bad tag!': use letters, digits, '_' and '-'"
        ),
        (
            "[\n{\"content\":\"one\"},\n{\"content\":\n\"two\"}\n{\"content\":\"three\"}\n]", "json", 5,
            "expected ',' or ']' after a record"
        ),
        ("[\n{\"content\":\"one\"},\n{\"content\":\"two\"}", "json", 3, "the array is not closed with ']'"),
        ("[\n{\"content\":\"one\"},\n42\n]", "json", 3, "a record must be a JSON object"),
        ("{\"entries\": [\n{\"title\": \"x\"}\n]}", "json", 2, "a jrnl entry needs a \"date\" of the form YYYY-MM-DD"),
        ("- one\n  <!-- memo {\"uuid\": -->\n", "md", 2, "the memo's metadata comment is not valid JSON")
    ])
    func aMalformedRecordFailsTheImportAndChangesNothing(
        _ text: String, _ extension: String, _ line: Int, _ message: String
    ) throws {
        let session = try ScriptedNotebook()
        try session.run("add already there")
        let before = try session.dump()
        let file = try scratch.write(text, to: "bad." + `extension`)
        #expect {
            try session.run("import \(file)")
        } throws: { error in
            errorReport(error) == "\(file):\(line): error: \(message)"
        }
        #expect(try session.dump() == before)
    }

    /// Markdown people write: items under day headings, without memo's metadata comments.
    /// Nothing is dropped: a heading and a paragraph are memos too; a heading that is only a
    /// day dates what follows it.
    @Test func handWrittenMarkdownImports() throws {
        let session = try ScriptedNotebook()
        let file = try scratch.write(
            """
            # Notes

            Some prose
            on two lines.

            ## 2024-03-01

            - Call the bank
            - Pack for the trip
              passport and charger

            ## 2024-03-02 Saturday

            - Farmers market @food

            """, to: "notes.md")
        #expect(try session.run("import \(file)") == "imported 6 records: 6 added, 0 updated, 0 skipped\n")
        #expect(
            try session.run("list --asc") == """
                #1  2000-01-01 00:00:00  # Notes
                #2  2000-01-01 00:00:01  Some prose …
                #3  2024-03-01 00:00:00  Call the bank
                #4  2024-03-01 00:00:00  Pack for the trip …
                #5  2024-03-02 00:00:00  ## 2024-03-02 Saturday
                #6  2024-03-02 00:00:00  Farmers market @food

                """)
        #expect(try session.notebook.store.memo(id: 2)?.content == "Some prose\non two lines.")
        #expect(try session.notebook.store.memo(id: 4)?.content == "Pack for the trip\npassport and charger")
    }

    /// A fenced code block is code: its items, headings and blank lines are its own, and it
    /// is one memo, fences included, exactly as written (an unclosed one runs to the end).
    @Test func fencedCodeInHandWrittenMarkdownIsOneMemoAsWritten() throws {
        let session = try ScriptedNotebook()
        let fenced = "```sh\nls\n- not an item\n\n# not a heading\n```"
        let file = try scratch.write("Run this:\n\(fenced)\n- an item\n\n~~~~\n``` still code\n~~~\n", to: "code.md")
        #expect(try session.run("import \(file)") == "imported 4 records: 4 added, 0 updated, 0 skipped\n")
        let texts = try (1...4).map { try session.notebook.store.memo(id: $0)?.content }
        #expect(texts == ["Run this:", fenced, "an item", "~~~~\n``` still code\n~~~"])
    }

    /// An exported item whose comment carries its text (one an item cannot show as it is) and
    /// whose shown text was then edited by hand: the import fails at the item, instead of
    /// keeping one of the two texts without a word.
    @Test func anEditedItemWhoseCommentCarriesTheOldTextFailsTheImport() throws {
        let source = try ScriptedNotebook()
        try source.run("import \(try scratch.write(#"{"content":"first\rsecond"}"#, to: "cr.jsonl"))")
        let exported = scratch.file("cr.md")
        try source.run("export \(exported)")
        let text = try String(contentsOfFile: exported, encoding: .utf8)
        #expect(text.contains("- first␍second"))
        try scratch.write(text.replacing("- first␍second", with: "- first, edited"), to: "cr.md")
        let target = try ScriptedNotebook()
        #expect { try target.run("import \(exported)") } throws: { error in
            errorReport(error).hasPrefix("\(exported):5: error: the item's text was edited after the export")
        }
        #expect(try target.dump().isEmpty)
        try scratch.write(text, to: "cr.md")
        #expect(try target.run("import \(exported)") == "imported 1 record: 1 added, 0 updated, 0 skipped\n")
    }

    /// The content tells the format, whatever the name says; `--format` overrides it.
    @Test func formatsComeFromTheContentUnlessGiven() throws {
        let session = try ScriptedNotebook()
        let file = try scratch.write("[{\"content\":\"from an array\"}]", to: "array.txt")
        #expect(throws: LocatedError.self) { try session.run("import \(file) --format jsonl") }
        #expect(try session.run("import \(file)") == "imported 1 record: 1 added, 0 updated, 0 skipped\n")
        let lines = try scratch.write("{\"content\":\"one\"}", to: "lines.json")
        #expect { try session.run("import \(lines) --format json") } throws: { error in
            errorReport(error) == "\(lines):1: error: a JSON array of memo objects must start with '['"
        }
        #expect(throws: CommandError.self) { try session.run("import \(file) --entity Book") }
        #expect(throws: CommandError.self) { try session.run("import \(scratch.file("missing.jsonl"))") }
    }

    @Test func exportFollowsTheFiltersOldestFirst() throws {
        let session = try filledNotebook()
        let lines = TextFile.lines(of: try session.run("export - --tag travel"))
        #expect(lines.count == 2)
        #expect(lines.allSatisfy { $0.contains("\"travel\"") })
        #expect(try session.run("export - --format json --tag nothing") == "[]\n")
    }
}

/// Import records are read into `JSONValue` through `JSONDecoder`: every JSON value is
/// kept, and text that is not JSON is refused.
@Suite("Reading JSON values")
struct JSONValueReadingTests {
    @Test func aRecordReadsAsItsValues() throws {
        let value = try JSONValue.parse(
            #"  { "id" : 12 , "content" : "x" , "tags" : [ "a" , "b" ], "uuid": null, "f": 1.5, "t": true }  "#.utf8)
        #expect(value[member: "id"] == .integer(12))
        #expect(value[member: "content"] == .string("x"))
        #expect(value[member: "tags"] == .array([.string("a"), .string("b")]))
        #expect(value[member: "uuid"] == .null)
        #expect(value[member: "f"] == .number(1.5))
        #expect(value[member: "t"] == .bool(true))
        #expect(value[member: "missing"] == nil)
        #expect(
            try JSONValue.parse(#"{"nested":{"a":["b",{}]}}"#.utf8)[member: "nested"]
                == .object([("a", .array([.string("b"), .object([])]))]))
    }

    @Test(arguments: [
        (
            #"{"content":"quotes \" backslash \\ slash \/ controls \b\f\n\r\t"}"#,
            "quotes \" backslash \\ slash / controls \u{8}\u{C}\n\r\t"
        ),
        (#"{"content":"unicode é 旅行 🎉 \u00e9 \u65c5 \ud83c\udf89"}"#, "unicode é 旅行 🎉 é 旅 🎉")
    ])
    func escapesAreDecoded(_ text: String, _ content: String) throws {
        #expect(try JSONValue.parse(text.utf8)[member: "content"] == .string(content))
    }

    /// An object's members come back in one order, their names', whatever order a run of the
    /// decoder keeps them in: what is written from them (a Markdown export's metadata) is the
    /// same bytes in every process.
    @Test func anObjectsMembersAreReadInTheirNamesOrder() throws {
        let names = (0..<12).map { String(UnicodeScalar(UInt8(ascii: "a") + UInt8($0))) }
        let text = "{" + names.reversed().enumerated().map { #""\#($1)":\#($0)"# }.joined(separator: ",") + "}"
        guard case .object(let members) = try JSONValue.parse(text.utf8) else {
            Issue.record("not an object")
            return
        }
        #expect(members.map(\.0) == names)
    }

    /// What memo writes, it reads back as written.
    @Test func writtenValuesReadBack() throws {
        let value: JSONValue = .array([
            .null, .bool(false), .integer(-7), .string("a \"b\"\n\u{1}"), .object([("k", .array([]))])
        ])
        #expect(try JSONValue.parse(value.serialized.utf8) == value)
    }

    @Test(arguments: [
        #"{"content":"unclosed}"#,
        #"{"content":"x"} trailing"#,
        "{\"content\":\"raw\ttab\"}",
        #"{"content":"bad \x escape"}"#,
        ""
    ])
    func textThatIsNotJSONIsRefused(_ text: String) {
        #expect(throws: (any Error).self) { try JSONValue.parse(text.utf8) }
    }

    @Test func invalidUTF8IsRefused() {
        let bytes: [UInt8] = Array(#"{"content":""#.utf8) + [0xE9] + Array(#""}"#.utf8)
        #expect(throws: (any Error).self) { try JSONValue.parse(bytes) }
    }
}
