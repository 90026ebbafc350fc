import Foundation
import MemoModel
import MemoNotebookTestSupport
import MemoTestSupport
import Testing

@testable import MemoNotebook
@testable import MemoStore

/// The command line's side of stable references (docs/REFERENCE.md, Links): `show`, `list`,
/// `search`, `graph` and `pick` read each `#ID` link as its memo's id in this store, `show`
/// gives a memo's handle, every id argument takes `memo:HANDLE` and `memo:UUID`, and a link
/// to a deleted memo is named by what it was, never by a number another memo has here.
@Suite("Stable references on the command line")
struct StableCommandLineTests {
    let scratch = TemporaryFolder()

    /// X writes Alpha (#1 there) and "see #1"; Y has a memo of its own, then syncs: Alpha is
    /// #2 on Y and the memo citing it #3.
    struct TwoStores {
        let here: ScriptedNotebook
        let there: ScriptedNotebook
        let alpha: Memo
        let handle: MemoHandle
    }

    func twoStores() throws -> TwoStores {
        let here = try ScriptedNotebook(file: scratch.path + "/x.sqlite")
        let there = try ScriptedNotebook(file: scratch.path + "/y.sqlite")
        try here.run("add Alpha")
        let alpha = try #require(try here.notebook.memo(id: 1))
        let handle = try here.notebook.handle(ofUUID: alpha.uuid)
        try here.run(["add see #1 and \(handle) about it"])
        try there.run(["add Y's own", "sync \(scratch.path)/x.sqlite"])
        return TwoStores(here: here, there: there, alpha: alpha, handle: handle)
    }

    @Test func showListSearchAndGraphReadEachLinkByItsIDHere() throws {
        let stores = try twoStores()
        let there = stores.there
        #expect(try there.notebook.memo(id: 2)?.uuid == stores.alpha.uuid)
        let listed = try there.run("list").split(separator: "\n")
        #expect(listed.contains { $0.hasPrefix("#3  ") && $0.hasSuffix("  see #2 and \(stores.handle) about it") })
        #expect(try there.run("search see").contains("see #2 and \(stores.handle)"))
        let shown = try there.run("show 3")
        #expect(shown.hasSuffix("\nsee #2 and \(stores.handle) about it\n"))
        #expect(shown.contains("→ #2 Alpha"))
        #expect(try there.run("show 2").contains("← #3 see #2 and \(stores.handle) about it"))
        #expect(try there.run("graph").contains(##"3 [label="#3 see #2 and \##(stores.handle) about it"];"##))
        #expect(try there.json("graph").contains(#""title":"see #2 and \#(stores.handle) about it""#))
        // What others import is data: the stored text, and links that carry uuids.
        #expect(try there.json("list").contains(#""content":"see #1 and \#(stores.handle) about it""#))
        #expect(try there.json("show 3").contains(#""content":"see #1 and \#(stores.handle) about it""#))
        // The store that wrote it reads it as it was written.
        #expect(try stores.here.run("show 2").hasSuffix("\nsee #1 and \(stores.handle) about it\n"))
    }

    @Test func showGivesTheMemosHandle() throws {
        let stores = try twoStores()
        let shown = try stores.there.run("show 2")
        #expect(shown.contains("uuid:     \(stores.alpha.uuid)\nhandle:   \(stores.handle)\n"))
        #expect(try stores.there.json("show 2").contains(#""handle":"\#(stores.handle)""#))
    }

    @Test func idArgumentsTakeHandlesAndUUIDs() throws {
        let stores = try twoStores()
        let there = stores.there
        #expect(try there.run("show \(stores.handle)").hasPrefix("#2\n"))
        #expect(try there.run("show memo:\(stores.alpha.uuid)").hasPrefix("#2\n"))
        #expect(
            try there.run("show \(stores.handle.description.uppercased().replacing("MEMO:", with: "memo:"))").hasPrefix(
                "#2\n"))
        #expect(try there.run("list --links-to \(stores.handle)").contains("#3  "))
        #expect(try there.run("count --linked-from 3") == "1\n")
        try there.run("tag \(stores.handle) greek")
        #expect(try there.notebook.memo(id: 2)?.tags == ["greek"])
        try there.run("edit \(stores.handle) Alpha, renamed")
        #expect(try there.notebook.memo(id: 2)?.content == "Alpha, renamed")
        #expect(throws: (any Error).self) { try there.run("show memo:ffffffff") }
        #expect(throws: (any Error).self) { try there.run("show memo:12") }
        #expect(try there.run("delete memo:\(stores.alpha.uuid)") == "deleted #2; it was referenced by #3\n")
    }

    /// A handle two memos share names neither: the error lists them with the handles that do.
    @Test func aHandleSeveralMemosShareIsAnErrorNamingThem() throws {
        let file = scratch.path + "/twins.jsonl"
        try
            ([
                #"{"uuid":"abcdef01-2345-4000-8000-000000000001","content":"first twin"}"#,
                #"{"uuid":"abcdef01-2399-4000-8000-000000000002","content":"second twin"}"#
            ].joined(separator: "\n") + "\n").write(toFile: file, atomically: true, encoding: .utf8)
        let session = try ScriptedNotebook()
        try session.run("import \(file)")
        let error = try #require(throws: CommandError.self) { try session.run("show memo:abcdef01") }
        #expect(
            error.message
                == "memo:abcdef01 names several memos: #1 (memo:abcdef01234) first twin, #2 (memo:abcdef01239) second twin"
        )
        let none = try #require(throws: CommandError.self) { try session.run("delete memo:99999999") }
        #expect(none.message == "no memo memo:99999999 here")
    }

    /// Alpha deleted on Y, where #1 is Y's own memo: `show` of the memo citing it names Alpha
    /// by its handle and last first line, never `#1`; its text reads the handle too.
    @Test func aDeletedTargetIsNamedByWhatItWas() throws {
        let stores = try twoStores()
        let there = stores.there
        try there.run("delete 2")
        let shown = try there.run("show 3")
        #expect(shown.contains("links:    → \(stores.handle) Alpha (deleted)\n"))
        #expect(!shown.contains("#1"))
        #expect(shown.hasSuffix("\nsee \(stores.handle) and \(stores.handle) about it\n"))
        #expect(try there.json("show 3").contains(##""reference":"#1","id":null,"uuid":"\##(stores.alpha.uuid)""##))
    }

    /// A memo deleted in the other store before a sync could bring it: this store knows
    /// nothing of it but its uuid, so it is named by its handle, `(not here)`, never by `#1`,
    /// Y's own memo here.
    @Test func aTargetThisStoreNeverHadIsNamedByItsHandle() throws {
        let here = try ScriptedNotebook(file: scratch.path + "/x.sqlite")
        let there = try ScriptedNotebook(file: scratch.path + "/y.sqlite")
        try here.run(["add Alpha", "add see #1"])
        let handle = try here.notebook.handle(ofUUID: try #require(try here.notebook.memo(id: 1)).uuid)
        try here.run("delete 1")
        try there.run(["add Y's own", "sync \(scratch.path)/x.sqlite"])
        #expect(try there.notebook.memo(id: 1)?.content == "Y's own")
        let shown = try there.run("show 2")
        #expect(shown.contains("links:    → \(handle) (not here)\n"), "\(shown)")
        #expect(shown.hasSuffix("\nsee \(handle)\n"))
    }

    /// `pick` offers the lines `list` shows.
    @Test func pickOffersReadableLines() throws {
        let stores = try twoStores()
        let picker = OfferRecorder()
        stores.there.notebook.picker = picker
        _ = try stores.there.notebook.execute(.pick(PickRequest(source: .list(ListArguments()), action: .show)))
        #expect(picker.offered.contains { $0.contains("see #2 and \(stores.handle)") })
    }
}

/// A picker that records what it was offered and picks nothing.
private final class OfferRecorder: MemoPicker, @unchecked Sendable {
    var offered: [String] = []

    func pick(_ lines: [String], preview: PickPreview) throws -> [String] {
        offered = lines
        return []
    }
}
