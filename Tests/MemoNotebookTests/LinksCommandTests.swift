import Foundation
import MemoNotebookTestSupport
import MemoStore
import MemoTestSupport
import Testing

@testable import MemoNotebook

/// `memo links` (docs/REFERENCE.md, Links): the references of memos' texts and where they lead,
/// the ones that look accidental (`--check`), and their unlinking (`--unlink`) as one change
/// that undo takes back and a sync carries.
@Suite("The links command")
struct LinksCommandTests {
    let scratch = TemporaryFolder()

    /// A store whose imported memos were linked by the rule an earlier memo read every
    /// record by: their `links` name memos #1 and #2 (`Rule #1`, `Glossary, #2`).
    func importedByAnEarlierMemo(_ session: ScriptedNotebook) throws {
        try session.run(["add first memo", "add second memo, see #1"])
        let (one, two) = (
            try #require(try session.notebook.store.memo(id: 1)).uuid,
            try #require(try session.notebook.store.memo(id: 2)).uuid
        )
        let file = scratch.file("old.jsonl")
        try [
            #"{"content":"Rule #1: never panic","links":[{"start":5,"length":2,"uuid":"\#(one)"}]}"#,
            #"{"content":"TCP/IP Slang Glossary, #2","links":[{"start":23,"length":2,"uuid":"\#(two)"}]}"#
        ].map { $0 + "\n" }.joined().write(toFile: file, atomically: true, encoding: .utf8)
        try session.run("import \(file)")
    }

    @Test func checkFindsTheAccidentalLinksAndUnlinkMakesThemWordsUndoably() throws {
        let session = try ScriptedNotebook()
        try importedByAnEarlierMemo(session)
        try session.run("add my own note: see #2, and issue #1 is fixed")
        #expect(
            try session.run("links --check")
                == """
                #3  #1 → #1 first memo  "Rule #1: never panic"
                #4  #2 → #2 second memo, see #1  "TCP/IP Slang Glossary, #2"
                #5  #1 → #1 first memo  "…note: see #2, and issue #1 is fixed"

                """)
        #expect(try session.run("count --orphan") == "0\n")
        #expect(try session.run("links --check --unlink") == "unlinked 3 references in 3 memos\n")
        #expect(try session.run("links --check").isEmpty)
        #expect(
            try session.run("links --linked-from 5")
                == "#2  #1 → #1 first memo  \"second memo, see #1\"\n", "the memo #5 still links to")
        #expect(try session.run("list --links-to 1") == "#2  2000-01-01 00:00:01  second memo, see #1\n")
        #expect(try session.run("count --orphan") == "2\n")
        #expect(!(try session.run("graph").contains("3 -> 1;")))
        #expect(try session.run("graph").contains("5 -> 2;"))
        #expect(!(try session.run("show 3").contains("→")))
        // An edit that keeps the words keeps them words.
        try session.run("edit 3 Rule #1: never, ever panic")
        #expect(!(try session.run("list --links-to 1").contains("Rule")))
        let history = try session.run("history -n 2")
        #expect(history.contains("unlink"), "\(history)")
        try session.run(["undo", "undo"])
        #expect(try session.run("links --check").split(separator: "\n").count == 3)
        try session.run("redo")
        #expect(try session.run("links --check").isEmpty)
        #expect(try session.json("links --unlink") == #"{"unlinked":2,"memos":2}"# + "\n")
        #expect(try session.run("list --links-to 1").isEmpty)
        #expect(try session.run("list --links-to 2").isEmpty)
        #expect(try session.run("count --orphan") == "5\n")
    }

    /// Only the selected memos' links go; JSON names each reference.
    @Test func filtersChooseTheMemos() throws {
        let session = try ScriptedNotebook()
        try session.run(["add one", "add two @keep #1", "add three #1"])
        #expect(
            try session.json("links --tag keep")
                == ##"{"memo":2,"start":10,"reference":"#1","context":"two @keep #1","id":1,"uuid":""##
                + (try #require(try session.notebook.store.memo(id: 1)).uuid) + #"","accidental":false}"# + "\n")
        #expect(try session.run("links --unlink --tag keep") == "unlinked 1 reference in 1 memo\n")
        #expect(try session.run("list --links-to 1") == "#3  2000-01-01 00:00:02  three #1\n")
        #expect(try session.run("links 3 2") == "#2  #1 → (none)  \"two @keep #1\"\n#3  #1 → #1 one  \"three #1\"\n")
        #expect(throws: StoreError.memoNotFound([9])) { try session.run("links 9") }
        #expect(try session.run("links --unlink 3 --check") == "unlinked 0 references in 0 memos\n")
        #expect(try session.run("links --unlink 3") == "unlinked 1 reference in 1 memo\n")
    }

    /// An unlink is a change of those memos: the next sync carries it.
    @Test func anUnlinkTravelsBySync() throws {
        let here = try ScriptedNotebook(file: scratch.path + "/unlink-here.sqlite")
        let there = try ScriptedNotebook(file: scratch.path + "/unlink-there.sqlite")
        try importedByAnEarlierMemo(here)
        try there.run(["add only there", "sync \(scratch.path)/unlink-here.sqlite"])
        func linkedThere() throws -> Int {
            try there.notebook.store.textLinks(MemoFilter(), .all).filter { $0.target != nil }.count
        }
        #expect(try linkedThere() == 3)
        // The unlink is a newer version of those memos: it wins whichever side starts the sync.
        try here.run("links --check --unlink")
        try there.run("sync \(scratch.path)/unlink-here.sqlite")
        #expect(try linkedThere() == 1, "the link memo #2's own text makes stays")
        #expect(try here.notebook.store.textLinks(MemoFilter(), .accidental).isEmpty)
    }
}
