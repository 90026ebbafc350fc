import MemoNotebookTestSupport
import MemoStore
import MemoTestSupport
import Testing

@testable import MemoNotebook

/// `list --ids`, `search --ids`, `pick` and `-i` (docs/REFERENCE.md, Picking memos), with a
/// picker that stands in for the person at fzf.
@Suite("Picking memos")
struct PickTests {
    /// Picks the lines whose first word is among `ids`, and keeps what it was offered.
    final class FixedPick: MemoPicker {
        let ids: [Int64]
        private(set) var offered: [String] = []
        private(set) var preview: PickPreview?

        init(_ ids: [Int64]) { self.ids = ids }

        func pick(_ lines: [String], preview: PickPreview) throws -> [String] {
            offered = lines
            self.preview = preview
            return ids.compactMap { id in lines.first { $0.hasPrefix("#\(id) ") } }
        }
    }

    /// Prints what `print` makes of the lines offered, as fzf would print it: a stand-in for
    /// fzf's output under settings that change what it prints.
    final class PrintedPick: MemoPicker {
        let print: ([String]) -> [String]

        init(_ print: @escaping ([String]) -> [String]) { self.print = print }

        func pick(_ lines: [String], preview: PickPreview) throws -> [String] { print(lines) }
    }

    private func command(_ line: String) throws -> Command {
        guard case .command(let command) = try CommandParser.parse(line: line) else {
            throw CommandError.usage("not a command: \(line)")
        }
        return command
    }

    private func session(picking ids: [Int64]) throws -> (ScriptedNotebook, FixedPick) {
        let session = try ScriptedNotebook()
        try session.run(["add alpha @old", "add beta", "add --tag old gamma", "add delta @old"])
        let picker = FixedPick(ids)
        session.notebook.picker = picker
        return (session, picker)
    }

    private static let oldTag = ListArguments(filter: FilterArguments(tags: ["old"]))

    @Test(arguments: [
        ("pick", Command.pick(PickRequest(source: .list(ListArguments()), action: .printIDs))),
        ("pick --tag old", .pick(PickRequest(source: .list(oldTag), action: .printIDs))),
        (
            "pick --tag old alpha -beta",
            .pick(
                PickRequest(
                    source: .search(SearchArguments(query: SearchQuery.parsed("alpha -beta"), list: oldTag)),
                    action: .printIDs))
        ),
        ("show -i --tag old", .pick(PickRequest(source: .list(oldTag), action: .show))),
        ("delete --tag old -i", .pick(PickRequest(source: .list(oldTag), action: .delete))),
        ("rm --interactive --tag old", .pick(PickRequest(source: .list(oldTag), action: .delete))),
        (
            "edit -i -F a-b",
            .pick(
                PickRequest(
                    source: .search(SearchArguments(query: SearchQuery.parsed("a-b", fixed: true))), action: .edit))
        ),
        ("tag -i Done --tag old", .pick(PickRequest(source: .list(oldTag), action: .tag(["done"])))),
        ("edit 3 ls -i lists inodes", .edit(id: 3, text: "ls -i lists inodes")),
        ("edit 3 use -n 5", .edit(id: 3, text: "use -n 5")),
        ("show 1 2", .show(ids: [1, 2])),
        ("list --ids --tag old", .list(ListArguments(filter: FilterArguments(tags: ["old"]), printsIDs: true))),
        (
            "search --ids alpha",
            .search(SearchArguments(query: SearchQuery.parsed("alpha"), list: ListArguments(printsIDs: true)))
        )
    ])
    func parses(_ line: String, _ expected: Command) throws {
        #expect(try command(line) == expected)
    }

    @Test(arguments: [
        ("show 3 --tag old", "'--tag' goes with -i: 'show -i' picks among the memos it selects"),
        ("delete -n 2 4", "'-n' goes with -i: 'delete -i' picks among the memos it selects"),
        ("tag -i", "'tag' needs at least one tag"),
        ("pick -F", "'-F' needs a query: the words to find"),
        ("tag -i x -F", "unknown option '-F' for 'tag'"),
        ("pick 12x --ids", "unknown option '--ids' for 'pick'")
    ])
    func refuses(_ line: String, _ message: String) {
        #expect {
            try command(line)
        } throws: {
            ($0 as? CommandError)?.message == message && ($0 as? CommandError)?.kind == .usage
        }
    }

    @Test func aHeredocIsRefusedWithInteractive() {
        #expect(throws: CommandError.usage("'edit -i' takes no heredoc text")) {
            try CommandParser.parse(line: "edit -i <<END", heredoc: "text")
        }
    }

    /// One id a line and nothing else, whatever the renderer: under --json each line is a
    /// JSON number.
    @Test(arguments: [false, true])
    func idsAreOneALine(json: Bool) throws {
        let (session, _) = try session(picking: [])
        for (line, expected) in [
            ("list --ids --tag old", "4\n3\n1\n"), ("list --ids --asc -n 2 --group day", "1\n2\n"),
            ("search --ids alpha OR gamma", "3\n1\n"), ("search --ids nothing", "")
        ] {
            guard case .command(let command) = try CommandParser.parse(line: line) else { continue }
            let output = StringOutput()
            let renderer: OutcomeRenderer =
                json ? JSONRenderer() : TextRenderer(style: TextStyle(width: 80, color: true, displayTime: .utc))
            try renderer.render(try session.notebook.execute(command), to: output)
            #expect(output.text == expected, "\(line)")
        }
    }

    @Test func pickOffersALineAMemoAndPrintsTheIdsPicked() throws {
        let (session, picker) = try session(picking: [3, 1])
        #expect(try session.run("pick --tag old") == "3\n1\n")
        #expect(
            picker.offered == [
                "#4  2000-01-01 00:00:03  delta @old", "#3  2000-01-01 00:00:02  gamma  @old",
                "#1  2000-01-01 00:00:00  alpha @old"
            ])
        guard case .texts(let texts) = picker.preview else {
            Issue.record("an in-memory store previews texts, not \(String(describing: picker.preview))")
            return
        }
        #expect(texts["#3"] == (try session.run("show 3")))
        #expect(texts.keys.sorted() == ["#1", "#3", "#4"])
    }

    @Test func aQueryOffersWhatTheSearchFinds() throws {
        let (session, picker) = try session(picking: [])
        _ = try session.notebook.execute(try command("pick gamma OR beta"))
        #expect(picker.offered.map { String($0.prefix(2)) } == ["#3", "#2"])
    }

    @Test func deleteInteractiveDeletesExactlyThePicked() throws {
        let (session, _) = try session(picking: [4, 1])
        #expect(try session.run("delete -i --tag old") == "deleted #4 #1\n")
        #expect(try session.run("list --ids") == "3\n2\n")
        try session.run("undo")
        #expect(try session.run("list --ids") == "4\n3\n2\n1\n")
    }

    @Test func nothingPickedChangesNothing() throws {
        let (session, _) = try session(picking: [])
        let outcome = try session.notebook.execute(try command("delete -i"))
        guard case .nothingPicked = outcome else {
            Issue.record("expected nothing picked, got \(outcome)")
            return
        }
        #expect(try session.run("count") == "4\n")
    }

    @Test func showInteractiveShowsThePicked() throws {
        let (session, _) = try session(picking: [2])
        #expect(try session.run("show -i") == (try session.run("show 2")))
    }

    @Test func tagInteractiveTagsEachPickedInOneChange() throws {
        let (session, _) = try session(picking: [4, 2])
        #expect(try session.run("tag -i done x") == "#4 @done @old @x\n#2 @done @x\n")
        try session.run("undo")
        #expect(try session.run("list --ids --tag done") == "")
    }

    /// One memo picked is edited as `edit ID` edits it; several, in one bulk-edit buffer.
    @Test func editInteractiveEditsTheOnePickedAndSeveralInOneBuffer() throws {
        let (session, _) = try session(picking: [2])
        session.notebook.missingTextSource = ScriptedEditor { _ in "beta, edited" }
        #expect(try session.run("edit -i") == "edited #2\n")
        session.notebook.picker = FixedPick([3, 1])
        let editor = ScriptedEditor { buffer in
            buffer.split(separator: "\n", omittingEmptySubsequences: false)
                .map { $0.hasPrefix("%") || $0.isEmpty ? $0 : $0 + " (both)" }.joined(separator: "\n")
        }
        session.notebook.missingTextSource = editor
        _ = try session.run("edit -i")
        let opened = try #require(editor.opened.first)
        let headers = opened.split(separator: "\n").filter { $0.hasPrefix("%% #") }.map { $0.prefix(6) }
        #expect(headers == ["%% #3 ", "%% #1 "])
        #expect(try session.run("show 3 1").ranges(of: " (both)").count == 2)
        #expect(try session.run("history -n 1").contains("bulk-edit"))
        try session.run("undo")
        #expect(try session.run("list --ids") == "4\n3\n2\n1\n")
    }

    /// fzf's output is taken only when every line of it is one of the lines offered: a query
    /// (`--print-query`, or a `print-query` key), a key name (`--expect`), everything as one
    /// item (`--read0`) or NUL-ended lines (`--print0`) act on nothing, and one line says why.
    @Test(
        arguments: [
            ("query 1, then #3", { @Sendable (lines: [String]) in ["1", lines[1]] }),
            ("key name, then #3", { @Sendable (lines: [String]) in ["ctrl-x", lines[1]] }),
            ("empty key line, then #4", { @Sendable (lines: [String]) in ["", lines[0]] }),
            ("all lines as one item", { @Sendable (lines: [String]) in lines + [""] }),
            ("NUL-ended", { @Sendable (lines: [String]) in [lines[1] + "\0" + lines[2] + "\0"] }),
            ("a line cut short", { @Sendable (lines: [String]) in [String(lines[1].prefix(3))] })
        ] as [(String, @Sendable ([String]) -> [String])])
    func whatIsNotALineOfferedActsOnNothing(_ name: String, print: @escaping @Sendable ([String]) -> [String]) throws {
        let (session, _) = try session(picking: [])
        session.notebook.picker = PrintedPick(print)
        for line in ["delete -i --tag old", "tag -i x", "pick"] {
            #expect(throws: CommandError.invalid(Notebook.misreadPick), "\(name): \(line)") { try session.run(line) }
        }
        #expect(try session.run("list --ids --tag x") == "")
        #expect(try session.run("count") == "4\n")
    }

    /// Inside a batch the store file does not hold the batch's changes yet: the preview shows
    /// the texts the session sees, not what another process reads from the file.
    @Test func aBatchOnAStoreFilePreviewsItsOwnTexts() throws {
        let scratch = TemporaryFolder()
        let session = try ScriptedNotebook(file: scratch.path + "/store.sqlite")
        try session.run(["add alpha", "add beta"])
        let picker = FixedPick([])
        session.notebook.picker = picker
        _ = try session.notebook.execute(try command("pick"))
        guard case .showCommand = picker.preview else {
            Issue.record("outside a batch a store file previews by show: \(String(describing: picker.preview))")
            return
        }
        try session.run(["begin", "add batch only", "edit 1 changed"])
        _ = try session.notebook.execute(try command("pick"))
        guard case .texts(let texts) = picker.preview else {
            Issue.record("a batch previews its own texts, not \(String(describing: picker.preview))")
            return
        }
        #expect(texts["#3"] == (try session.run("show 3")))
        #expect(texts["#1"] == (try session.run("show 1")))
        #expect(texts["#1"]?.contains("changed") == true)
    }

    /// Scripts and the server have no picker: a clear refusal, nothing changed.
    @Test func withoutAPickerPickingIsRefused() throws {
        let session = try ScriptedNotebook()
        try session.run("add alpha")
        let refusal = CommandError.invalid(
            "picking memos needs a person at a terminal (fzf), which scripts and the server have not: "
                + "name the memos by id (memo list --ids gives them)")
        for line in ["pick", "delete -i", "show -i alpha", "tag -i x", "edit -i"] {
            #expect(throws: refusal) { try session.run(line) }
        }
        #expect(try session.run("count") == "1\n")
    }

    @Test func nothingToPickFromIsSaid() throws {
        let (session, _) = try session(picking: [1])
        #expect(throws: CommandError.invalid("no memo to pick from: none is selected")) {
            try session.run("pick --tag nosuch")
        }
    }
}

extension SearchQuery {
    /// A query as the parser reads `text`, for test arguments, which cannot throw: these
    /// literals are valid queries.
    fileprivate static func parsed(_ text: String, fixed: Bool = false) -> SearchQuery {
        try! fixed ? SearchQuery(fixed: text) : SearchQuery(parsing: text)
    }
}
