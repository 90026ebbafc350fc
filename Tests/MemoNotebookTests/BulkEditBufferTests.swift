import MemoTestSupport
import Testing

@testable import MemoNotebook

/// The bulk edit's buffer (docs/REFERENCE.md, Editing several memos at once): whatever the
/// texts hold, the reader gives back exactly what the writer wrote, and no text line is
/// ever read as a header.
@Suite("The bulk edit's buffer")
struct BulkEditBufferTests {
    /// Texts that look like the buffer's own lines, or end, break or start their lines in
    /// every way a text can.
    static let awkwardTexts = [
        "plain", "%% #1 2026-01-01 looks like a header", "%% new", "%%% looks like a comment", "%%",
        "\\%% #2 already quoted once", "\\\\%%% quoted twice", "\\ a backslash", "text\n%% #3 inside\nafter",
        "two lines\r\nwith CR LF", "ends with CR LF\r\n", "ends with a line break\n", "two line breaks\n\n",
        "\n\nstarts with empty lines", "middle\n\n\nempty lines", "  indented\n\ttabbed", "café 京都 👍🏽 ẞ",
        "e\u{301} decomposed\n\u{301} a mark at a line's start", "lone CR\r inside", "#1 not a header",
        " %% indented like a header", "\t%%% an indented comment", "  \\%% indented and quoted",
        "abc\r", "line\r\n\r", "\r", "\r\n", "\r\r\n\n", "ends with CR then LF\r\n\r\n"
    ]

    static func sections(_ texts: [String]) -> [BulkEditBuffer.Section] {
        texts.enumerated().map {
            BulkEditBuffer.Section(
                id: Int64($0.offset + 1), date: "2026-01-01 10:00:00", version: "v\($0.offset)", text: $0.element)
        }
    }

    static func expectRoundTrip(_ texts: [String]) throws {
        let memos = sections(texts)
        let blocks = try BulkEditBuffer.read(BulkEditBuffer.write(memos))
        #expect(blocks == memos.map { .memo(id: $0.id, text: $0.text, version: $0.version) })
        for (block, memo) in zip(blocks, memos) {
            guard case .memo(_, let text, _) = block else { continue }
            #expect(Array(text.utf8) == Array(memo.text.utf8), "\(memo.text.debugDescription)")
        }
    }

    @Test func everyTextComesBackAsItWasByteForByte() throws {
        try Self.expectRoundTrip(Self.awkwardTexts)
    }

    /// Texts made at random of the pieces that break lines, start them like the buffer's own
    /// lines or quote them: CR, LF, CR LF, blanks, `\\`, `%%`, `#1`, `new`, letters.
    @Test(arguments: 0..<40)
    func randomTextsComeBackAsTheyWere(_ seed: Int) throws {
        var random = SeededRandom(seed: UInt64(seed))
        let pieces = ["\r", "\n", "\r\n", " ", "\t", "\\", "%%", "%", "#1", " new", "a", "é", "\u{FEFF}", "\u{301}"]
        let texts = (0..<8).map { _ in
            (0..<random.next(13)).map { _ in pieces[random.next(pieces.count)] }.joined()
        }
        try Self.expectRoundTrip(texts)
    }

    @Test func eachHeaderNamesTheMemosVersion() throws {
        let buffer = BulkEditBuffer.write([
            BulkEditBuffer.Section(id: 2, date: "2026-03-02 09:15:00", version: "3f2a", text: "a")
        ])
        #expect(buffer.hasSuffix("\n%% #2 2026-03-02 09:15:00 v:3f2a\na\n"))
        #expect(try BulkEditBuffer.read("%% #2 by hand\nb\n") == [.memo(id: 2, text: "b", version: nil)])
    }

    /// An editor that autoindents: an indented `%%` line is a header (or refused), never text.
    @Test func anIndentedHeaderIsAHeader() throws {
        #expect(
            try BulkEditBuffer.read("%% #2 D v:1\nb\n  %% #1 D v:2\na\n\t%%% a comment\n") == [
                .memo(id: 2, text: "b", version: "1"), .memo(id: 1, text: "a", version: "2")
            ])
        #expect(throws: BulkEditProblem.malformedHeader(line: 3, text: "  %%#1")) {
            try BulkEditBuffer.read("%% #2 D\nb\n  %%#1\na\n")
        }
        #expect(BulkEditBuffer.write(Self.sections(["  %% x"])).hasSuffix("\n  \\%% x\n"))
    }

    @Test func aByteOrderMarkAtTheStartIsNotText() throws {
        #expect(try BulkEditBuffer.read("\u{FEFF}%%% note\n%% #1 D\na\n") == [.memo(id: 1, text: "a")])
        #expect(try BulkEditBuffer.read("\u{FEFF}%% #1 D\na\n") == [.memo(id: 1, text: "a")])
    }

    @Test func aTextLineThatLooksLikeAHeaderIsQuotedWithOneMoreBackslash() {
        let buffer = BulkEditBuffer.write([
            BulkEditBuffer.Section(id: 7, date: "D", version: "0", text: "%% #1\n\\%% new\n%%% x\nplain %%")
        ])
        #expect(buffer.hasSuffix("%% #7 D v:0\n\\%% #1\n\\\\%% new\n\\%%% x\nplain %%\n"))
    }

    @Test func theBufferStartsWithCommentsTheReaderDrops() throws {
        let buffer = BulkEditBuffer.write(Self.sections(["a"]))
        let lines = buffer.split(separator: "\n")
        #expect(lines.first?.hasPrefix("%%% memo:") == true)
        #expect(lines.dropLast(2).allSatisfy { $0.hasPrefix("%%%") })
        #expect(try BulkEditBuffer.read("%%% a comment\n%% #1 D\n%%% here too\na\n") == [.memo(id: 1, text: "a")])
    }

    /// An editor that saves the whole buffer with CR LF line ends: the headers still read,
    /// and each text loses the line break that ended it, as `edit ID` drops its editor's.
    @Test func aBufferSavedWithCRLFLineEndsReadsTheSame() throws {
        let saved = "%%% note\r\n%% #2 D\r\nfirst\r\n%% new\r\nadded\r\n"
        #expect(try BulkEditBuffer.read(saved) == [.memo(id: 2, text: "first"), .new(text: "added")])
    }

    /// An editor set to DOS line ends turns every line feed of the buffer into CR LF, those
    /// inside texts too: every text still comes back as it was, so an untouched memo is not
    /// edited (its multi-line text would gain a CR at each line break).
    @Test func aBufferAnEditorTurnedToCRLFGivesBackEveryText() throws {
        let memos = Self.sections(Self.awkwardTexts)
        let saved = BulkEditBuffer.write(memos).utf8.reduce(into: [UInt8]()) { bytes, byte in
            if byte == 0x0A { bytes.append(0x0D) }
            bytes.append(byte)
        }
        let blocks = try BulkEditBuffer.read(String(decoding: saved, as: UTF8.self))
        #expect(blocks == memos.map { .memo(id: $0.id, text: $0.text, version: $0.version) })
    }

    @Test func aBufferWithoutItsLastLineBreakKeepsTheLastText() throws {
        #expect(try BulkEditBuffer.read("%% #1 D\nlast") == [.memo(id: 1, text: "last")])
    }

    @Test func severalNewHeadersAreSeveralMemos() throws {
        #expect(
            try BulkEditBuffer.read("%% new\none\n%% new\n\n%%   new  \ntwo\n")
                == [.new(text: "one"), .new(text: ""), .new(text: "two")])
    }

    @Test(arguments: [
        ("%% #1 D\na\n%%#2\nb\n", BulkEditProblem.malformedHeader(line: 3, text: "%%#2")),
        ("%% #1 D\na\n%% 2 D\nb\n", .malformedHeader(line: 3, text: "%% 2 D")),
        ("%% #1 D\na\n%% new memo\nb\n", .malformedHeader(line: 3, text: "%% new memo")),
        ("%% #1 D\na\n%% #x\n", .malformedHeader(line: 3, text: "%% #x")),
        ("%% #1 D\na\n%%\n", .malformedHeader(line: 3, text: "%%")),
        ("\nstray text\n%% #1 D\na\n", .textBeforeFirstHeader(line: 2)),
        ("%% #1 D\na\n%% #2 D\nb\n%% #1 again\nc\n", .duplicateHeader(line: 5, id: 1))
    ])
    func aBufferTheReaderCannotReadIsRefused(_ saved: String, _ problem: BulkEditProblem) {
        #expect(throws: problem) { try BulkEditBuffer.read(saved) }
    }
}
