import MemoStore
import Testing
@testable import MemoNotebook

@Suite("Notebook and rendering")
struct RenderingTests {
    let notebook: Notebook

    init() throws {
        notebook = Notebook(store: try MemoStore.open(.memory), clock: DeterministicClock(),
                            uuids: SequentialUUIDs(), displayTime: .utc)
    }

    /// Runs lines through the interpreter and returns what a person would see.
    private func session(_ lines: [String], json: Bool = false, width: Int? = nil) -> String {
        let output = StringOutput()
        let renderer: OutcomeRenderer = json
            ? JSONRenderer()
            : TextRenderer(style: TextStyle(width: width, color: false, displayTime: .utc))
        let interpreter = LineInterpreter(notebook: notebook, renderer: renderer, output: output) { message, line in
            output.write("\(line): error: \(message)\n")
        }
        for (index, line) in lines.enumerated() { _ = interpreter.feed(line, lineNumber: index + 1) }
        _ = interpreter.finish()
        return output.text
    }

    @Test func addListShowAsText() {
        let text = session(["add Buy milk @shop", "add --tag work Ship it", "list", "show 1"])
        #expect(text == """
            added #1
            added #2
            #2  2000-01-01 00:00:01  Ship it  @work
            #1  2000-01-01 00:00:00  Buy milk @shop  @shop
            #1
            uuid:     00000000-0000-4000-8000-000000000001
            inserted: 2000-01-01 00:00:00
            updated:  never
            tags:     @shop

            Buy milk @shop

            """)
    }

    @Test func memosAsJSONLines() {
        let text = session(["add \"quote \\\" and\\nnewline\"", "edit 1 changed", "list"], json: true)
        #expect(text == """
            {"id":1,"uuid":"00000000-0000-4000-8000-000000000001","content":"quote \\" and\\nnewline","insertDate":"2000-01-01T00:00:00.000Z","updateDate":null,"tags":[]}
            {"id":1,"uuid":"00000000-0000-4000-8000-000000000001","content":"changed","insertDate":"2000-01-01T00:00:00.000Z","updateDate":"2000-01-01T00:00:01.000Z","tags":[]}
            {"id":1,"uuid":"00000000-0000-4000-8000-000000000001","content":"changed","insertDate":"2000-01-01T00:00:00.000Z","updateDate":"2000-01-01T00:00:01.000Z","tags":[]}

            """)
    }

    @Test func otherOutcomesAsOneJSONObject() {
        let text = session(["add a @x", "add b @x @y", "count --tag x", "tags", "delete 1 2"], json: true)
        let lines = text.split(separator: "\n").suffix(3)
        #expect(Array(lines) == [
            #"{"count":2}"#,
            #"{"tags":[{"name":"x","count":2},{"name":"y","count":1}]}"#,
            #"{"deleted":[1,2]}"#,
        ])
    }

    @Test func listFiltersByDay() {
        let text = session([
            "add day one", "add day one again",
            "list --on 2000-01-01 --asc -n 1", "count --on yesterday", "count --since today", "count --until 1999-12-31",
        ])
        #expect(text.split(separator: "\n").suffix(4) == ["#1  2000-01-01 00:00:00  day one", "0", "2", "0"])
    }

    @Test func longLinesAreShortenedKeepingTags() {
        let text = session(["add " + String(repeating: "長い", count: 40) + " @tag", "list"], width: 50)
        let line = String(text.split(separator: "\n")[1])
        #expect(DisplayWidth.of(line) <= 50)
        #expect(line.hasSuffix("…  @tag"))
        #expect(line.hasPrefix("#1  2000-01-01 00:00:00  長い"))
    }

    @Test func multiLineMemosListTheirFirstLine() {
        let text = session(["add <<END", "first line", "", "third", "END", "list", "show 1"])
        #expect(text.contains("#1  2000-01-01 00:00:00  first line …\n"))
        #expect(text.hasSuffix("\nfirst line\n\nthird\n"))
    }

    @Test func errorsAreReportedAndTheSessionGoesOn() throws {
        let text = session(["delete 1", "add ok", "list -n x", "add <<END", "never finished"])
        #expect(text == """
            1: error: no memo #1
            added #1
            3: error: invalid number 'x' for '-n': expected 0 or more
            4: error: text ended before the heredoc's closing 'END'

            """)
        #expect(try notebook.store.count() == 1)
    }

    @Test func failedDeleteDeletesNothing() throws {
        _ = session(["add one", "add two", "delete 1 99"])
        #expect(try notebook.store.count() == 2)
    }

    @Test func infoDescribesTheStore() throws {
        let text = session(["add a", "info"], json: true)
        let version = try notebook.store.info().sqliteVersion
        #expect(text.hasSuffix(#"{"mode":"memory","path":null,"schemaVersion":2,"memoCount":1,"sqliteVersion":"\#(version)","journalMode":"memory","unsavedChanges":false}"# + "\n"))
    }

    @Test func helpListsEveryCommand() {
        let text = session(["help"])
        for syntax in CommandSyntax.all { #expect(text.contains("  " + syntax.name + " ")) }
        #expect(session(["help rm"]).hasPrefix("usage: delete ID...\n"))
    }
}
