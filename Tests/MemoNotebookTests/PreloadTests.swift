import MemoNotebookTestSupport
import MemoStore
import Testing

@testable import MemoNotebook

/// `preload`, the fixtures of `--fixture`, is a command like any other: it runs through
/// `Notebook.execute` and loads the fixture, which is the session's starting point and not
/// a change of it that the session's `undo` takes back (a `fixture` command's load is one).
@Suite("A preloaded fixture")
struct PreloadTests {
    let session: ScriptedNotebook

    init() throws {
        session = try ScriptedNotebook()
    }

    @Test func loadsTheFixtureAsTheStartingPointThatTheSessionsUndoLeaves() throws {
        guard
            case .fixtureLoaded(let name, let added) = try session.notebook.execute(.preload(Fixture.resolve("books")))
        else {
            Issue.record("the fixture was not loaded")
            return
        }
        #expect(name == "books" && added == 10)
        #expect(try session.run("count") == "10\n")
        #expect(throws: StoreError.self) { try session.run("undo") }
        try session.run("fixture books")
        #expect(try session.run("undo").hasPrefix("undid change 2 (fixture"))
        #expect(try session.run("count") == "10\n")
    }

    /// The command language does not spell it: only `memo --fixture` builds it.
    @Test func isNotACommandOfTheLanguage() throws {
        #expect(throws: CommandError.self) { try CommandParser.parse(line: "preload books") }
        #expect(!HelpText.text(for: nil).contains("preload"))
        #expect(Completer(data: session.notebook).complete("prel").items.isEmpty)
    }
}
