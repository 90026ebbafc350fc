import Foundation
import MemoNotebookTestSupport
import MemoStore
import MemoTestSupport
import Testing

@testable import MemoNotebook

/// `today` (docs/REFERENCE.md, The daily memo): the memo tagged @daily inserted today in the
/// display time zone, made on first use, edited after, on the deterministic clock.
@Suite("today")
struct DailyMemoTests {
    let folder = TemporaryFolder()

    func session(displayTime: DisplayTime = .utc) throws -> ScriptedNotebook {
        let session = try ScriptedNotebook(displayTime: displayTime)
        session.notebook.templates = TemplateFolder(path: folder.path)
        return session
    }

    @Test func theFirstUseMakesTheMemoAndTheSecondEditsIt() throws {
        let session = try session()
        try folder.write("{{weekday}} {{date}}\n", to: "daily")
        let editor = ScriptedEditor { $0 + "\nwoke up early" }
        session.notebook.missingTextSource = editor
        try session.run("clock 2024-03-01T07:00:00Z")
        #expect(try session.run("today") == "added #1\n")
        try session.run("add something else --tag daily-ish")
        #expect(try session.run("today") == "edited #1\n")
        #expect(editor.opened == ["Friday 2024-03-01", "Friday 2024-03-01\nwoke up early"])
        #expect(
            try session.run("show 1").contains("tags:     @daily\n\nFriday 2024-03-01\nwoke up early\nwoke up early\n"))
        #expect(try session.run("count --tag daily") == "1\n")

        try session.run("clock 2024-03-02T00:00:01Z")
        #expect(try session.run("today") == "added #3\n")
        #expect(editor.opened.last == "Saturday 2024-03-02")
    }

    @Test func withoutADailyTemplateTheTextStartsEmpty() throws {
        let session = try session()
        let editor = ScriptedEditor { $0 + "first line" }
        session.notebook.missingTextSource = editor
        #expect(try session.run("today") == "added #1\n")
        #expect(editor.opened == [""])
    }

    /// Saved unchanged, the second time: nothing recorded; the first time: nothing made.
    @Test func anUnchangedTextRecordsNothing() throws {
        let session = try session()
        try folder.write("{{date}}\n", to: "daily")
        session.notebook.missingTextSource = ScriptedEditor { $0 }
        #expect(throws: CommandError.invalid("nothing added: the template 'daily' was saved unchanged")) {
            try session.run("today")
        }
        try FileManager.default.removeItem(atPath: folder.file("daily"))
        #expect(throws: CommandError.invalid("nothing added: the text is empty")) { try session.run("today") }
        #expect(try session.run("count") == "0\n")
        session.notebook.missingTextSource = ScriptedEditor { _ in "plans" }
        try session.run("today")
        session.notebook.missingTextSource = ScriptedEditor { $0 }
        #expect(try session.run("today") == "#1 unchanged: the text is the same\n")
        #expect(try session.run("history") == "1  2000-01-01 00:00:00  add       1 memo    plans\n")
    }

    /// After a sync brought another @daily memo of the same day, the first inserted is the one.
    @Test func ofSeveralDailyMemosTodayTheFirstIsOpened() throws {
        let session = try session()
        try session.run([
            "clock 2024-03-01T10:00:00Z", "add later one --tag daily", "clock 2024-03-01T08:00:00Z",
            "add earlier one --tag daily", "add not daily"
        ])
        let editor = ScriptedEditor { $0 + "!" }
        session.notebook.missingTextSource = editor
        try session.run("clock 2024-03-01T12:00:00Z")
        #expect(try session.run("today") == "edited #2\n")
        #expect(editor.opened == ["earlier one"])
    }

    /// The day is the display time zone's: 20:30 UTC on Friday is Saturday in Tokyo.
    @Test func theDayIsTheDisplayTimeZones() throws {
        let session = try session(displayTime: TemplateTests.tokyo)
        try session.run(["clock 2024-03-01T14:00:00Z", "add friday in tokyo --tag daily"])
        session.notebook.missingTextSource = ScriptedEditor { $0 + "saturday" }
        try session.run("clock 2024-03-01T20:30:00Z")
        #expect(try session.run("today") == "added #2\n")
        try session.run("clock 2024-03-01T14:59:00Z")
        #expect(try session.run("today") == "edited #1\n")
    }

    @Test func withoutAnEditorItIsAUsageError() throws {
        let session = try session()
        #expect(
            throws: CommandError.usage(
                "'today' needs an editor, which scripts and the server do not have: add --tag daily TEXT, or edit ID TEXT"
            )
        ) { try session.run("today") }
        #expect(throws: CommandError.self) { try session.run("today now") }
    }
}
