import MemoStore
import Testing

@testable import MemoNotebook

/// The `CommandSyntax` table is the one list of commands: every typed name has exactly one
/// entry, no spelling is taken twice, and each spelling parses to its own command.
@Suite("Command table")
struct CommandTableTests {
    private let spellings = CommandSyntax.table.flatMap { [$0.name] + $0.aliases }

    @Test(arguments: CommandName.allCases)
    func everyLanguageCommandHasOneEntry(_ name: CommandName) {
        #expect(CommandSyntax.table.filter { $0.kind == .language(name) }.count == 1)
        #expect(CommandSyntax.named(name.rawValue)?.kind == .language(name))
        #expect(CommandSyntax.programCommand(named: name.rawValue) == nil)
    }

    @Test(arguments: ProgramCommandName.allCases)
    func everyProgramCommandHasOneEntryOutsideTheLanguage(_ name: ProgramCommandName) throws {
        #expect(CommandSyntax.table.filter { $0.kind == .program(name) }.count == 1)
        #expect(CommandSyntax.programCommand(named: name.rawValue) == name)
        #expect(CommandSyntax.named(name.rawValue) == nil)
        #expect(throws: CommandError.usage("unknown command '\(name.rawValue)' (try 'help')")) {
            try CommandParser.parse(arguments: [name.rawValue])
        }
    }

    @Test func spellingsAreUnique() {
        #expect(Set(spellings).count == spellings.count)
    }

    @Test func tableListsTheLanguageThenTheProgram() {
        #expect(CommandSyntax.all.map(\.kind) == CommandName.allCases.map { .language($0) })
        #expect(
            CommandSyntax.table.map(\.kind) == CommandSyntax.all.map(\.kind)
                + ProgramCommandName.allCases.map { .program($0) })
        #expect(CommandSyntax.offeredProgramCommands == [.run, .test, .serve, .encrypt, .decrypt, .completions])
    }

    /// Every name and alias of a command parses to that command, and `NAME --help` to its help.
    @Test(arguments: CommandName.allCases)
    func everySpellingParsesToItsCommand(_ name: CommandName) throws {
        let syntax = try #require(CommandSyntax.named(name.rawValue))
        let (arguments, expected) = try Self.example(name)
        for spelling in [name.rawValue] + syntax.aliases {
            #expect(try CommandParser.parse(arguments: [spelling] + arguments) == expected)
            #expect(try CommandParser.parse(arguments: [spelling, "--help"]) == .help(topic: name.rawValue))
        }
    }

    /// Valid arguments for each command and what they parse to: a switch, so that a new
    /// command cannot go untested.
    private static func example(_ name: CommandName) throws -> ([String], Command) {
        switch name {
        case .add: (["text"], .add(text: "text", tags: []))
        case .list: ([], .list(ListArguments()))
        case .search: (["word"], .search(SearchArguments(query: try SearchQuery(parsing: "word"))))
        case .show: (["1"], .show(ids: [1]))
        case .edit: (["1", "text"], .edit(id: 1, text: "text"))
        case .delete: (["1"], .delete(ids: [1]))
        case .tag: (["1", "a"], .tag(id: 1, tags: ["a"]))
        case .untag: (["1", "a"], .untag(id: 1, tags: ["a"]))
        case .tags: ([], .tags)
        case .count: ([], .count(FilterArguments()))
        case .graph:
            (
                ["--format", "json", "--links-to", "#2", "--orphan"],
                .graph(GraphArguments(filter: FilterArguments(linksTo: 2, isOrphan: true), format: .json))
            )
        case .links:
            (
                ["3", "--check", "--unlink", "--tag", "a"],
                .links(
                    LinksArguments(ids: [3], filter: FilterArguments(tags: ["a"]), onlyAccidental: true, unlinks: true))
            )
        case .begin: ([], .begin)
        case .save: ([], .save)
        case .rollback: ([], .rollback)
        case .undo: ([], .undo)
        case .redo: ([], .redo)
        case .history: ([], .history(limit: nil))
        case .sync: (["other.sqlite"], .sync(try SyncArguments("other.sqlite")))
        case .import: (["memos.jsonl"], .importFile(ImportArguments(path: "memos.jsonl", format: nil)))
        case .export: (["-"], .export(ExportArguments(path: "-", format: .jsonl)))
        case .fixture: (["sample"], .fixture("sample"))
        case .fixtures: ([], .fixtures)
        case .clock: (["today"], .clock(.today))
        case .info: ([], .info)
        case .help: (["rm"], .help(topic: "rm"))
        case .quit: ([], .quit)
        case .today: ([], .today)
        case .pick:
            (
                ["--tag", "a"],
                .pick(
                    PickRequest(source: .list(ListArguments(filter: FilterArguments(tags: ["a"]))), action: .printIDs))
            )
        case .calendar:
            (
                ["--year", "2024", "--tag", "work"],
                .calendar(CalendarArguments(filter: FilterArguments(tags: ["work"]), year: 2024))
            )
        case .stats: (["--since", "today"], .stats(FilterArguments(since: .today)))
        }
    }
}
