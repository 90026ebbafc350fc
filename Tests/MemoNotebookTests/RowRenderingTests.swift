import MemoNotebookTestSupport
import Testing

@testable import MemoNotebook
@testable import MemoStore

/// Listing and exporting every memo copy each row's bytes straight to the output when they
/// can (`TextRenderer.plainListLine`, `JSONRenderer.jsonLine`); the output must be exactly
/// what decoding each memo gives, for every kind of text, also bytes that are not UTF-8.
@Suite("Rows rendered from their bytes")
struct RowRenderingTests {
    /// Texts that take the byte path and texts that must leave it.
    static let contents = [
        "plain ASCII", "two\nlines", "日本語のメモ", "한국어 메모 @태그", "emoji 🎉👩‍👩‍👧 and é", "tab\there", "escape \u{1B}[31m red",
        "C1 \u{85} next line", "delete \u{7F}", "quote \" and \\ backslash", "inline @Shop and @home",
        "trailing space ",
        "line\r\nwith CRLF", "nul \u{0} inside", "@", "ends with @",
        "mail a@b.c and @Work", "(@paren) [@x] {@y} \"@q\" '@s'", "@Tag-1_2 end", "日本@tag", "@tagé more", "x @ y",
        "@ＴＡＧ wide", "@work's", "@shop @shop", "\u{3000}@shop after an ideographic space", "@a-b first",
        "first\nsecond @work line\nthird", "\nblank first, plain second", "one\r\r\nplain two @shop\n",
        "see #1\nplain second", "plain first\nsee #1 second", "a plain\nsecond \u{1B} control", "first\n日本語 second\n",
        "bidi \u{202E}reversed", "isolate \u{2067}x\u{2069} end", "embedding \u{202A}x", "arrow → … — \u{202F}kept"
    ]

    private func filledNotebook() throws -> ScriptedNotebook {
        let session = try ScriptedNotebook()
        for (index, content) in Self.contents.enumerated() {
            let tags = index % 3 == 0 ? [] : index % 3 == 1 ? ["work"] : ["été", "a-b", "shop"]
            _ = try session.notebook.store.insert(
                MemoDraft(
                    uuid: "00000000-0000-4000-8000-\(String(index + 1).leftPadded(12))",
                    content: content, insertDate: Timestamp(secondsSince1970: Int64(index) * 86_400 - 86_400),
                    updateDate: index % 2 == 0 ? nil : Timestamp(millisecondsSince1970: 1_700_000_000_123),
                    tags: tags))
        }
        // Another program may store bytes that are not UTF-8, in any text column (and keeps
        // a memo's `tag_names` with its tags, as the layout says).
        let database = session.notebook.store.database
        try database.asAnotherProgram {
            try database.execute(
                """
                INSERT INTO memo(uuid, content, insert_date) VALUES ('00000000-0000-4000-8000-0000000000ff', CAST(X'41FF42C0AFE08080' AS TEXT), 5);
                INSERT INTO memo(uuid, content, insert_date) VALUES (CAST(X'FE' AS TEXT), 'uuid not UTF-8', 6);
                INSERT INTO memo_tag(memo_id, name) VALUES (1, CAST(X'FF' AS TEXT));
                UPDATE memo SET tag_names = CAST(X'FF' AS TEXT) WHERE id = 1;
                INSERT INTO memo(uuid, content, insert_date) VALUES ('00000000-0000-4000-8000-0000000000fd', '', 7);
                INSERT INTO memo(uuid, content, insert_date) VALUES ('00000000-0000-4000-8000-0000000000fe', char(10), 8);
                """)
        }
        return session
    }

    @Test(arguments: [false, true])
    func textListingFromBytesMatchesDecodedMemos(inTokyo: Bool) throws {
        let session = try filledNotebook()
        let time = inTokyo ? DisplayTime.system : .utc
        let renderer = TextRenderer(style: TextStyle(width: nil, color: false, displayTime: time))
        let rows = try session.notebook.store.memos(MemoQuery())
        let memos = try session.notebook.store.memos(MemoQuery())
        var fromBytes = 0
        while let row = try rows.nextRow() {
            let memo = try #require(try memos.next())
            let expected = renderer.listLine(memo, text: memo.content) + "\n"
            var line: [UInt8] = []
            if renderer.appendPlainListLine(row, to: &line) {
                fromBytes += 1
                #expect(String(decoding: line, as: UTF8.self) == expected, "memo \(memo.id)")
            }
        }
        // All but the texts with controls, non-UTF-8 bytes or a blank first line ('' and "\n",
        // listed by their first line with text, which the byte path does not look for).
        #expect(fromBytes >= 16, "most texts take the byte path")
    }

    /// A search's line from the row's bytes is the line the snippet gives: a memo's only line,
    /// whether it matched or no line did (not folded), the line that matched in a text of
    /// lines, or its first line when none did.
    @Test(
        arguments: [
            "plain", "ascii", "line", "@work", "red", "日本語", "shop", "a-b", "zzz", "\"and @\"", "second", "two",
            "control"
        ])
    func searchLinesFromBytesMatchDecodedMemos(query: String) throws {
        let session = try filledNotebook()
        let search = try SearchQuery(parsing: query)
        let renderer = TextRenderer(style: TextStyle(width: nil, color: false, displayTime: .utc))
        let rows = try session.notebook.store.memos(MemoQuery())
        let memos = try session.notebook.store.memos(MemoQuery())
        var fromBytes = 0, ofLines = 0
        while let row = try rows.nextRow() {
            let memo = try #require(try memos.next())
            let text = try session.notebook.readableText(of: memo)
            let expected = renderer.listLine(memo, text: text, snippet: SearchSnippet(of: text, for: search)) + "\n"
            var line: [UInt8] = []
            if renderer.appendPlainSearchLine(row, for: search, to: &line) {
                fromBytes += 1
                if memo.content.utf8.contains(UInt8(ascii: "\n")) { ofLines += 1 }
                #expect(String(decoding: line, as: UTF8.self) == expected, "memo \(memo.id)")
            } else {
                #expect(line.isEmpty)
            }
        }
        #expect(fromBytes >= 18, "most texts take the byte path")
        #expect(ofLines >= 3, "texts of lines too")
    }

    @Test(arguments: [0, 7, 10, 99, 100, 1_234_567_890_123, -1, -42, Int64.max, Int64.min])
    func idsAreWrittenAsStringWritesThem(id: Int64) {
        var bytes: [UInt8] = Array("#".utf8)
        ByteText.appendDecimal(id, to: &bytes)
        #expect(String(decoding: bytes, as: UTF8.self) == "#\(id)")
    }

    @Test func jsonFromBytesMatchesDecodedMemos() throws {
        let session = try filledNotebook()
        let rows = try session.notebook.store.memos(MemoQuery())
        let memos = try session.notebook.store.memos(MemoQuery())
        var count = 0
        while let row = try rows.nextRow() {
            let memo = try #require(try memos.next())
            var line: [UInt8] = []
            JSONRenderer.appendJSONLine(of: row, to: &line)
            #expect(
                String(decoding: line, as: UTF8.self) == JSONRenderer.json(memo).serialized + "\n",
                "memo \(memo.id)")
            count += 1
        }
        #expect(count == Self.contents.count + 4)
    }

    /// The whole listing and exports through the renderers, as the program writes them.
    @Test func listingAndExportsReadBack() throws {
        let session = try filledNotebook()
        let listing = try session.run("list --asc")
        #expect(listing.split(separator: "\n", omittingEmptySubsequences: false).count == Self.contents.count + 4 + 1)
        #expect(listing.contains("  A\u{FFFD}B\u{FFFD}\u{FFFD}\u{FFFD}\u{FFFD}\u{FFFD}\n"))
        #expect(listing.contains("  escape ^[[31m red\n"))
        #expect(listing.contains("  plain ASCII  @\u{FFFD}\n"))
        let exported = try session.run("export - --format json")
        #expect(exported.hasPrefix("[\n{\"id\":"))
        #expect(exported.hasSuffix("}\n]\n"))
    }

    @Test(
        arguments: [
            ([0x41, 0x42], true, true), ([0xE6, 0x97, 0xA5], true, true), ([0xF0, 0x9F, 0x8E, 0x89], true, true),
            ([0x09], false, true), ([0x7F], false, true), ([0xC2, 0x85], false, true), ([0xC2, 0xA0], true, true),
            ([0xFF], false, false), ([0xC0, 0xAF], false, false), ([0xE0, 0x80, 0x80], false, false),
            ([0xED, 0xA0, 0x80], false, false),
            ([0xF4, 0x90, 0x80, 0x80], false, false), ([0xE6, 0x97], false, false), ([0x80], false, false)
        ] as [([UInt8], Bool, Bool)])
    func byteChecksAgreeWithSwift(bytes: [UInt8], plain: Bool, valid: Bool) {
        bytes.withUnsafeBytes { buffer in
            #expect(ByteText.isPlain(buffer) == plain)
            #expect(ByteText.isValid(buffer) == valid)
        }
        #expect((String(validating: bytes, as: UTF8.self) != nil) == valid)
    }
}

private extension String {
    func leftPadded(_ width: Int) -> String {
        String(repeating: "0", count: max(0, width - count)) + self
    }
}
