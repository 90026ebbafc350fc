import MemoNotebookTestSupport
import MemoStore
import Testing

@testable import MemoNotebook

/// `add` and `edit` without text (docs/REFERENCE.md, Text from an editor or standard input): the
/// session's source gives it, or, in scripts and the server, the command is refused as before.
@Suite("Text the command left out")
struct MissingTextTests {
    @Test func withoutASourceTheTextIsAMissingArgument() throws {
        let session = try ScriptedNotebook()
        #expect(throws: CommandError.usage("'add' needs the memo's text")) { try session.run("add --tag x") }
        try session.run("add one")
        #expect(throws: CommandError.usage("'edit' needs the new text")) { try session.run("edit 1") }
    }

    @Test func addTakesTheSourcesTextWithTheTags() throws {
        let session = try ScriptedNotebook()
        session.notebook.missingTextSource = ScriptedEditor { _ in "from the editor @inline" }
        #expect(try session.run("add --tag given") == "added #1\n")
        #expect(try session.run("show 1").contains("tags:     @given @inline\n\nfrom the editor @inline\n"))
    }

    /// Nothing written because the text is empty is a failure (exit status 1), as git aborts
    /// an empty commit message.
    @Test func anEmptyTextAddsNothingAndFails() throws {
        let session = try ScriptedNotebook()
        session.notebook.missingTextSource = ScriptedEditor { _ in " \n " }
        #expect(throws: CommandError.invalid("nothing added: the text is empty")) { try session.run("add") }
        #expect(try session.run("count") == "0\n")
        #expect(try session.run("history") == "")
    }

    @Test func editStartsFromTheMemosTextAndAnUnchangedTextChangesNothing() throws {
        let session = try ScriptedNotebook()
        try session.run("add first text")
        let same = ScriptedEditor { _ in "first text" }
        session.notebook.missingTextSource = same
        #expect(try session.run("edit 1") == "#1 unchanged: the text is the same\n")
        #expect(same.opened == ["first text"])
        #expect(!(try session.run("show 1")).contains("updated:  20"))
        session.notebook.missingTextSource = ScriptedEditor { _ in "second text" }
        #expect(try session.run("edit 1") == "edited #1\n")
        #expect(try session.run("show 1").hasSuffix("\nsecond text\n"))
        session.notebook.missingTextSource = ScriptedEditor { _ in "" }
        #expect(throws: CommandError.invalid("#1 unchanged: the new text is empty")) { try session.run("edit 1") }
        #expect(throws: StoreError.self) { try session.run("edit 9") }
    }
}
