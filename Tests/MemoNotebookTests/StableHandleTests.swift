import Foundation
import MemoModel
import MemoNotebookTestSupport
import MemoTestSupport
import Testing

@testable import MemoNotebook
@testable import MemoStore

/// Stable handles (`memo:8e75e0e6`, docs/REFERENCE.md, Links): a reference that names the same
/// memo in every store, and texts read with each `#ID` link as its memo's id here.
@Suite("Stable handles and readable texts")
struct StableHandleTests {
    let scratch = TemporaryFolder()

    func references(_ line: String) -> [MemoReference] {
        MemoReference.all(in: line, syntax: .plain).map(\.reference)
    }

    @Test func aHandleIsMemoAndEightToThirtyOneHexDigits() throws {
        let handle = try #require(MemoHandle(digits: "8e75e0e6"))
        #expect(references("see memo:8E75E0E6, then") == [.handle(handle)])
        #expect(references("see memo:8e75e0e6b2 now") == [.handle(try #require(MemoHandle(digits: "8e75e0e6b2")))])
        #expect(references("memo:8e75e0e").isEmpty, "seven digits are too few")
        #expect(references("memo:8e75e0e6x").isEmpty, "a handle ends a word")
        #expect(references("https://example.com/memo:8e75e0e6").isEmpty)
        #expect(
            references("memo:8e75e0e6b2c44a1f9d3e0a7b6c5d4e3f")
                == [.uuid("8e75e0e6-b2c4-4a1f-9d3e-0a7b6c5d4e3f")], "32 digits are a whole uuid")
        #expect(
            references("memo:8e75e0e6-b2c4-4a1f-9d3e-0a7b6c5d4e3f") == [.uuid("8e75e0e6-b2c4-4a1f-9d3e-0a7b6c5d4e3f")])
        #expect(handle.uuidPrefix == "8e75e0e6" && handle.uuidPrefixEnd == "8e75e0e7")
        #expect(MemoHandle(prefixOf: "8e75e0e6-b2c4-4a1f-9d3e-0a7b6c5d4e3f", length: 10).uuidPrefix == "8e75e0e6-b2")
        #expect(MemoHandle(prefixOf: "8e75e0e9-b2c4-4a1f-9d3e-0a7b6c5d4e3f", length: 8).uuidPrefixEnd == "8e75e0e:")
        #expect(
            MemoHandle(prefixOf: "8e75e0e6-b2c4-4a1f-9d3e-0a7b6c5d4e3f", length: 3).digits == "8e75e0e6", "at least 8")
        #expect(
            MemoHandle(prefixOf: "8e75e0e6-b2c4-4a1f-9d3e-0a7b6c5d4e3f", length: 40).digits
                == "8e75e0e6b2c44a1f9d3e0a7b6c5d4e3f", "at most the 32 digits")
    }

    /// Git's rule: the shortest prefix of at least 8 digits no other memo here shares; a
    /// shorter one that several share names none of them.
    @Test func aStoreNamesEachMemoByItsShortestUniqueHandle() throws {
        let file = scratch.path + "/twins.jsonl"
        try
            ([
                #"{"uuid":"abcdef01-2345-4000-8000-000000000001","content":"first twin"}"#,
                #"{"uuid":"abcdef01-2399-4000-8000-000000000002","content":"second twin"}"#,
                #"{"uuid":"12345678-0000-4000-8000-000000000003","content":"alone"}"#
            ].joined(separator: "\n") + "\n").write(toFile: file, atomically: true, encoding: .utf8)
        let session = try ScriptedNotebook()
        try session.run("import \(file)")
        let notebook = session.notebook
        #expect(try notebook.handle(ofUUID: "abcdef01-2345-4000-8000-000000000001").description == "memo:abcdef01234")
        #expect(try notebook.handle(ofUUID: "12345678-0000-4000-8000-000000000003").description == "memo:12345678")
        #expect(try notebook.match(try #require(MemoHandle(digits: "abcdef01"))) == .several)
        #expect(try notebook.memo(handle: try #require(MemoHandle(digits: "abcdef01239")))?.content == "second twin")
        #expect(try notebook.match(try #require(MemoHandle(digits: "ffffffff"))) == .none)
        // A script's uuids count up: neighbours differ in the last digit only.
        let counted = try ScriptedNotebook()
        try counted.run(["add one", "add two"])
        let second = try #require(try counted.notebook.memo(id: 2))
        let whole = try counted.notebook.handle(ofUUID: second.uuid)
        #expect(whole.digits.count == 32)
        #expect(MemoReference.all(in: "\(whole)", syntax: .plain).map(\.reference) == [.uuid(second.uuid)])
        #expect(try counted.notebook.match(whole) == .one(uuid: second.uuid))
        try session.run(["add see memo:12345678 and memo:abcdef01234 but not memo:abcdef01 or memo:99999999"])
        #expect(try session.run("list --links-to 3").contains("see memo:12345678"))
        #expect(try session.run("list --links-to 1").contains("see memo:12345678"))
        #expect(try session.run("list --links-to 2").isEmpty, "a handle several memos share names none")
    }

    /// `#1` written in a store where Alpha is #1 reads `#2` in a store where Alpha is #2,
    /// though its text still says `#1`; a link to a memo deleted since reads as its handle.
    @Test func aTextReadsEachLinkByItsMemosIDHere() throws {
        let here = try ScriptedNotebook(file: scratch.path + "/x.sqlite")
        let there = try ScriptedNotebook(file: scratch.path + "/y.sqlite")
        try here.run(["add Alpha", "add see #1 and #7"])
        try there.run(["add Y's own", "sync \(scratch.path)/x.sqlite"])
        let memos = try there.notebook.store.memos(MemoQuery()).collect()
        let alpha = try #require(memos.first { $0.content == "Alpha" })
        let see = try #require(memos.first { $0.content.hasPrefix("see") })
        #expect(alpha.id == 2)
        #expect(try there.notebook.readableText(of: see) == "see #2 and #7", "#7 named none: it reads as written")
        #expect(try here.notebook.readableText(of: try #require(try here.notebook.memo(id: 2))) == "see #1 and #7")
        try there.run("delete \(alpha.id)")
        let handle = try there.notebook.handle(ofUUID: alpha.uuid)
        #expect(try there.notebook.readableText(of: see) == "see \(handle) and #7")
        #expect(handle.digits.count == 8 && alpha.uuid.hasPrefix(handle.digits))
        // Saving the text as read (an editor showing it) keeps the link to the deleted memo.
        try there.run("edit \(see.id) see \(handle) and #7, saved as read")
        #expect(try there.json("show \(see.id)").contains(#""uuid":"\#(alpha.uuid)""#))
    }

    /// A memo's own file shows the text as read here, and its save is an edit of that text:
    /// where Alpha is #2, "see #1 and Rule #2" (#1 a link to Alpha, "Rule #2" words) reads
    /// "see #2 and Rule #2", and a save of it keeps the first `#2` Alpha's link and the
    /// second words.
    @Test func aSaveOfTheTextAsReadKeepsEachReferenceAsItRead() throws {
        let here = try ScriptedNotebook(file: scratch.path + "/read-x.sqlite")
        let there = try ScriptedNotebook(file: scratch.path + "/read-y.sqlite")
        try here.run(["add Alpha", "add Beta", "add see #1 and Rule #2", "links 3 --check --unlink"])
        try there.run(["add Y's own", "sync \(scratch.path)/read-x.sqlite"])
        let memos = try there.notebook.store.memos(MemoQuery()).collect()
        let alpha = try #require(memos.first { $0.content == "Alpha" })
        let see = try #require(memos.first { $0.content.hasPrefix("see") })
        let read = try there.notebook.readableText(of: see)
        #expect(read == "see #\(alpha.id) and Rule #2" && alpha.id == 2)
        _ = try there.notebook.execute(.editIfStill(id: see.id, text: read + "!", base: MemoFileBase(see)))
        let links = try there.notebook.store.links(of: see.id).outgoing
        #expect(links.map(\.written) == ["#2", "#2"])
        #expect(links.map(\.namedUUID) == [alpha.uuid, nil], "\(links)")
    }

    /// A person types the ids they read: on Y, where Alpha and Beta are #4 and #5 and Yankee
    /// is #2, "Gamma links #4 and #5, see also #2" keeps Alpha's and Beta's links and links
    /// Yankee, though the stored text spelled Beta `#2` — typed as an argument or in the editor.
    @Test func anEditLinksWhatItsPersonReadAndTyped() throws {
        let here = try ScriptedNotebook(file: scratch.path + "/typed-x.sqlite")
        let there = try ScriptedNotebook(file: scratch.path + "/typed-y.sqlite")
        try here.run(["add Alpha", "add Beta", "add Gamma links #1 and #2"])
        try there.run(["add Xray", "add Yankee", "add Zulu", "sync \(scratch.path)/typed-x.sqlite"])
        #expect(try there.run("show 6").hasSuffix("Gamma links #4 and #5\n"))
        func targets() throws -> [Int64?] { try there.notebook.store.links(of: 6).outgoing.map { $0.target?.id } }
        try there.run("edit 6 Gamma links #4 and #5, see also #2")
        #expect(try targets() == [4, 5, 2])
        #expect(try there.run("show 6").hasSuffix("Gamma links #4 and #5, see also #2\n"))
        let editor = ScriptedEditor { $0 + " and #3" }
        there.notebook.missingTextSource = editor
        try there.run("edit 6")
        #expect(editor.opened == ["Gamma links #4 and #5, see also #2"], "the editor opens the text as read")
        #expect(try targets() == [4, 5, 2, 3])
    }
}
