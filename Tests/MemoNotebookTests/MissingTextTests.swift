import MemoNotebookTestSupport
import MemoStore
import Testing

@testable import MemoNotebook

/// `add` and `edit` without text (docs/REFERENCE.md, Text from an editor or standard input): the
/// session's source gives it, or, in scripts and the server, the command is refused as before.
@Suite("Text the command left out")
struct MissingTextTests {
    /// Gives a fixed text and remembers what it was started on.
    final class FixedText: MissingTextSource {
        let text: String
        private(set) var startedOn: [String] = []

        init(_ text: String) { self.text = text }

        func text(current: String) throws -> String {
            startedOn.append(current)
            return text
        }

        func buffer(current: String) throws -> String { try text(current: current) }

        func keep(_ text: String) throws -> String { "" }
    }

    @Test func withoutASourceTheTextIsAMissingArgument() throws {
        let session = try ScriptedNotebook()
        #expect(throws: CommandError.usage("'add' needs the memo's text")) { try session.run("add --tag x") }
        try session.run("add one")
        #expect(throws: CommandError.usage("'edit' needs the new text")) { try session.run("edit 1") }
    }

    @Test func addTakesTheSourcesTextWithTheTags() throws {
        let session = try ScriptedNotebook()
        session.notebook.missingTextSource = FixedText("from the editor @inline")
        #expect(try session.run("add --tag given") == "added #1\n")
        #expect(try session.run("show 1").contains("tags:     @given @inline\n\nfrom the editor @inline\n"))
    }

    /// Nothing written because the text is empty is a failure (exit status 1), as git aborts
    /// an empty commit message.
    @Test func anEmptyTextAddsNothingAndFails() throws {
        let session = try ScriptedNotebook()
        session.notebook.missingTextSource = FixedText(" \n ")
        #expect(throws: CommandError.invalid("nothing added: the text is empty")) { try session.run("add") }
        #expect(try session.run("count") == "0\n")
        #expect(try session.run("history") == "")
    }

    @Test func editStartsFromTheMemosTextAndAnUnchangedTextChangesNothing() throws {
        let session = try ScriptedNotebook()
        try session.run("add first text")
        let same = FixedText("first text")
        session.notebook.missingTextSource = same
        #expect(try session.run("edit 1") == "#1 unchanged: the text is the same\n")
        #expect(same.startedOn == ["first text"])
        #expect(!(try session.run("show 1")).contains("updated:  20"))
        session.notebook.missingTextSource = FixedText("second text")
        #expect(try session.run("edit 1") == "edited #1\n")
        #expect(try session.run("show 1").hasSuffix("\nsecond text\n"))
        session.notebook.missingTextSource = FixedText("")
        #expect(throws: CommandError.invalid("#1 unchanged: the new text is empty")) { try session.run("edit 1") }
        #expect(throws: StoreError.self) { try session.run("edit 9") }
    }
}
