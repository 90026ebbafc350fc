import Foundation
import MemoNotebookTestSupport
import MemoStore
import MemoTestSupport
import Testing

@testable import MemoNotebook

/// Back-dating (docs/REFERENCE.md, Back-dating): `add --date` writes a memo at a date of its
/// own, `edit ID --date` moves one, as one recorded change that undo, sync, export and import
/// carry like any field of the memo's text.
@Suite("Back-dating")
struct BackdateTests {
    let scratch = TemporaryFolder()

    /// The memos oldest first, as `list --asc` shows them.
    private func order(_ session: ScriptedNotebook) throws -> String {
        try session.run("list --asc")
    }

    /// Every memo exactly, ids included.
    private func state(_ session: ScriptedNotebook) throws -> [String] {
        TextFile.lines(of: try session.json("list --asc"))
    }

    @Test func aBackDatedMemoTakesItsPlaceInTheOrderWithTheNextID() throws {
        let session = try ScriptedNotebook()
        try session.run(["clock 2024-03-05T12:00:00Z", "add today's", "add --date 2024-03-04T21:30Z last night"])
        try session.run("add --date 2024-03-01 --tag old a day, at the time of day it is now")
        #expect(
            try order(session) == """
                #3  2024-03-01 12:00:02  a day, at the time of day it is now  @old
                #2  2024-03-04 21:30:00  last night
                #1  2024-03-05 12:00:00  today's

                """)
        let memo = try session.notebook.store.existingMemo(id: 2)
        #expect(memo.updateDate == nil, "a memo written back-dated was never edited")
        let entry = try #require(try session.notebook.store.history(limit: 1).first)
        #expect(entry.kind == .add && entry.time == Timestamp(secondsSince1970: 1_709_640_002), "added now")
    }

    @Test func aMoveIsOneChangeThatUndoPutsBackAndRedoMovesAgain() throws {
        let session = try ScriptedNotebook()
        try session.run(["clock 2024-03-05T12:00:00Z", "add first @x", "add second", "add third"])
        let before = try state(session)
        #expect(try session.run("edit 3 --date 2024-03-01T08:00Z") == "moved #3 to 2024-03-01 08:00:00\n")
        let moved = try session.notebook.store.existingMemo(id: 3)
        #expect(moved.insertDate == Timestamp(secondsSince1970: 1_709_280_000))
        #expect(moved.updateDate == Timestamp(secondsSince1970: 1_709_640_003), "the update date is the move's time")
        #expect(moved.content == "third")
        #expect(try order(session).hasPrefix("#3  2024-03-01 08:00:00  third\n"))
        let after = try state(session)
        let entry = try #require(try session.notebook.store.history(limit: 1).first)
        #expect(entry.kind == .move && entry.memoCount == 1 && entry.label == "change 4 (move \"third\")")
        #expect(try session.run("undo") == "undid change 4 (move \"third\")\n")
        #expect(try state(session) == before)
        #expect(try session.run("redo") == "redid change 4 (move \"third\")\n")
        #expect(try state(session) == after)
        #expect(try session.run("history -n 3").contains("  move      1 memo    third\n"))
    }

    @Test func aMoveWithTextIsOneEditAndTheSameDateAndTextChangeNothing() throws {
        let session = try ScriptedNotebook()
        try session.run(["clock 2024-03-05T12:00:00Z", "add first", "add second"])
        let before = try state(session)
        #expect(
            try session.run("edit 2 --date 2024-03-01T08:00Z second, rewritten")
                == "edited #2 and moved it to 2024-03-01 08:00:00\n")
        guard
            case .command(let heredoc) = try CommandParser.parse(
                line: "edit 1 --date 2024-03-02T08:00Z <<END", heredoc: "first, from a heredoc")
        else { throw CommandError.usage("no command") }
        #expect(
            heredoc
                == .edit(
                    id: 1, text: "first, from a heredoc", date: .instant(Timestamp(secondsSince1970: 1_709_366_400))))
        _ = try session.notebook.execute(heredoc)
        let memos = try session.notebook.store.existingMemos(ids: [1, 2])
        #expect(memos.map(\.content) == ["first, from a heredoc", "second, rewritten"])
        #expect(memos.map(\.insertDate.millisecondsSince1970) == [1_709_366_400_000, 1_709_280_000_000])
        #expect(try session.notebook.store.history(limit: 2).map(\.kind) == [.edit, .edit])
        let count = try session.notebook.store.history(limit: nil).count
        #expect(
            try session.run("edit 2 --date 2024-03-01T08:00Z second, rewritten")
                == "#2 unchanged: the date and text are the same\n")
        #expect(try session.notebook.store.history(limit: nil).count == count)
        try session.run(["undo", "undo"])
        #expect(try state(session) == before, "one undo takes back the text and the date")
    }

    @Test func aDateOutsideTheYearsMemoKeepsIsRefusedAndAFutureOneIsAllowed() throws {
        let session = try ScriptedNotebook()
        try session.run("add one")
        for (line, date) in [("add --date 0000-12-31 too early", "0000-12-31"), ("edit 1 --date 10000y", "10000y")] {
            #expect(
                throws: CommandError.invalid(
                    "invalid date '\(date)' for '--date': it falls outside the years 0001 to 9999, which memo counts in UTC"
                )
            ) { try session.run(line) }
        }
        #expect(throws: CommandError.self) { try session.run("add --date someday text") }
        #expect(try session.run("edit 1 --date 2999-01-01T00:00Z") == "moved #1 to 2999-01-01 00:00:00\n")
        #expect(try session.run("count") == "1\n")
    }

    /// No memo is written with a date outside the years memo keeps, whatever the date came from:
    /// a script's clock run past 9999 (it steps on with every change), an imported record, or
    /// a move. The store refuses the change whole, and the store still syncs.
    @Test func noMemoIsWrittenWithADateOutsideTheYearsMemoKeeps() throws {
        let session = try store("edge.sqlite")
        try session.run(["clock 9999-12-31T23:59:59Z", "add a"])
        let before = try state(session)
        for line in ["add b", "edit 1 a, edited", "edit 1 --date 2024-01-01", "tag 1 late", "delete 1"] {
            #expect(
                throws: CommandError.invalid(
                    "the script's clock has run past 9999-12-31T23:59:59.999Z, the last instant memo keeps"
                        + " (the years 0001 to 9999, in UTC): nothing was written; 'clock DATE' sets it back")
            ) { try session.run(line) }
        }
        #expect(try state(session) == before, "nothing was written")
        #expect(throws: CommandError.self) { try session.run("clock 0000-06-01") }
        try session.run("clock 2024-03-05T12:00Z")
        for (field, date) in [("insertDate", "9999-12-31T23:00:00-05:00"), ("updateDate", "0001-01-01T08:00:00+09:00")]
        {
            let file = try scratch.write(
                #"{"content":"far","insertDate":"2024-01-01T00:00:00.000Z","\#(field)":"\#(date)"}"# + "\n",
                to: "far-\(field).jsonl")
            guard case .failure(let error) = session.attempt("import \(file)") else {
                Issue.record("a record dated \(date) was imported")
                continue
            }
            #expect(errorMessage(error).contains("the years 0001 to 9999, in UTC"), "\(errorMessage(error))")
        }
        #expect(try state(session) == before, "nothing was imported")
        _ = try session.run("sync \(path("other.sqlite"))")
    }

    // MARK: Sync

    private func store(_ name: String) throws -> ScriptedNotebook {
        try ScriptedNotebook(file: scratch.path + "/" + name)
    }

    private func path(_ name: String) -> String { scratch.path + "/" + name }

    private func memos(_ session: ScriptedNotebook) throws -> [String] {
        try session.dump().sorted()
    }

    @Test func aMoveOnOneSideReachesTheOther() throws {
        let a = try store("a.sqlite"), b = try store("b.sqlite")
        try a.run(["clock 2024-03-05T12:00Z", "add one", "add two", "sync \(path("b.sqlite"))"])
        try a.run("edit 2 --date 2024-03-01T09:00Z")
        #expect(try a.run("sync \(path("b.sqlite"))").hasSuffix(": 1 memo sent, 0 received\n"))
        #expect(try memos(a) == memos(b))
        #expect(try b.run("list --asc").hasPrefix("#2  2024-03-01 09:00:00  two\n"))
        #expect(try a.run("sync \(path("b.sqlite"))").hasSuffix(": 0 memos sent, 0 received\n"))
        try a.run(["edit 2 --date 2024-03-02T09:00Z", "undo", "sync \(path("b.sqlite"))"])
        #expect(try b.run("list --asc").hasPrefix("#2  2024-03-01 09:00:00  two\n"), "the undo is synced too")
        #expect(try memos(a) == memos(b))
    }

    /// A move on one side and an edit of the text on the other are concurrent changes of the
    /// memo's text: the later wins, and the other is kept as a @conflict copy (nothing typed is
    /// lost). Two concurrent moves of one text make no copy: the later date wins.
    @Test func aMoveAndAConcurrentEditOrMoveMergeByTheLaterChange() throws {
        let a = try store("a.sqlite"), b = try store("b.sqlite")
        try a.run(["clock 2024-03-05T12:00Z", "add the plan", "add the trip", "sync \(path("b.sqlite"))"])
        try b.run(["clock 2024-03-06T10:00Z", "edit 1 the plan, as b wrote it"])
        try a.run(["clock 2024-03-06T11:00Z", "edit 1 --date 2024-03-01T09:00Z"])
        try b.run(["clock 2024-03-06T12:00Z", "edit 2 --date 2024-02-01T09:00Z"])
        try a.run(["clock 2024-03-06T13:00Z", "edit 2 --date 2024-02-02T09:00Z"])
        #expect(
            try a.run("sync \(path("b.sqlite"))").hasSuffix(
                ": 2 memos sent, 0 received, 1 conflict kept as @conflict memos\n"))
        #expect(try memos(a) == memos(b))
        #expect(
            try b.run("list --asc") == """
                #2  2024-02-02 09:00:00  the trip
                #1  2024-03-01 09:00:00  the plan
                #3  2024-03-05 12:00:00  the plan, as b wrote it  @conflict

                """)
        #expect(try a.run("sync \(path("b.sqlite"))").hasSuffix(": 0 memos sent, 0 received\n"))
    }

    /// `undo --sync` keeps what the sync brought: a moved memo keeps the date it came with.
    @Test func anUndoneSyncKeepsTheDateItBrought() throws {
        let a = try store("a.sqlite"), b = try store("b.sqlite")
        try a.run(["clock 2024-03-05T12:00Z", "add one", "sync \(path("b.sqlite"))"])
        try b.run("edit 1 --date 2024-03-01T09:00Z")
        try a.run("sync \(path("b.sqlite"))")
        try a.run("undo --sync")
        #expect(try a.run("list") == "#1  2024-03-01 09:00:00  one\n")
        try a.run("sync \(path("b.sqlite"))")
        #expect(try memos(a) == memos(b))
    }

    // MARK: Export and import

    /// An export of a moved memo, imported into a store that holds it unmoved, moves it there
    /// (the record was edited later); a record with another insert date that was not edited
    /// later is still another memo, added apart.
    @Test(arguments: ["jsonl", "json", "md"])
    func anExportOfAMovedMemoMovesItWhereItIsImported(_ format: String) throws {
        let source = try ScriptedNotebook(), file = path("first.\(format)")
        try source.run(["clock 2024-03-05T12:00Z", "add one @x", "add two", "export \(file)"])
        let target = try ScriptedNotebook()
        try target.run("import \(file)")
        try source.run("edit 2 --date 2024-03-01T09:00Z")
        let moved = path("moved.\(format)")
        try source.run("export \(moved)")
        #expect(
            try target.run("import \(moved)")
                == "imported 2 records: 0 added, 1 updated, 1 skipped (1 already in the store)\n")
        #expect(try target.dump() == source.dump())
        #expect(
            try target.run("import \(moved)")
                == "imported 2 records: 0 added, 0 updated, 2 skipped (2 already in the store)\n")
    }

    @Test func aRecordWithAnotherInsertDateNotEditedLaterIsStillAnotherMemo() throws {
        let session = try ScriptedNotebook()
        try session.run(["clock 2024-03-05T12:00Z", "add mine", "edit 1 mine, edited"])
        let uuid = try session.notebook.store.existingMemo(id: 1).uuid
        let file = try scratch.write(
            #"{"uuid":"\#(uuid)","content":"theirs","insertDate":"2024-01-01T00:00:00.000Z","updateDate":"2024-03-05T11:00:00.000Z"}"#
                + "\n", to: "older.jsonl")
        #expect(try session.run("import \(file)").contains("1 added (1 under a new uuid"))
        #expect(try session.notebook.store.existingMemo(id: 1).content == "mine, edited")
    }
}
