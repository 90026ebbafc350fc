import MemoNotebook
import MemoTestSupport
import Testing

/// The program's commands come from the `CommandSyntax` table: `memo --help` shows and
/// completion offers each offered one, the command line accepts each, and none is hidden
/// in the wrong place.
@Suite("Program commands")
struct ProgramCommandTests {
    let memo = MemoBinary()

    @Test(arguments: ProgramCommandName.allCases)
    func helpAndCompletionShowWhatTheTableOffers(_ name: ProgramCommandName) throws {
        let help = try memo.run(["--help"]).standardOutput
        let offered = try memo.run(["__complete", "memo "]).lines
        #expect(help.contains("\n       memo \(name.rawValue) ") == name.isOffered)
        #expect(offered.contains(name.rawValue) == name.isOffered)
    }

    @Test(arguments: ProgramCommandName.allCases.filter(\.isOffered))
    func theCommandLineAcceptsEachOfferedCommand(_ name: ProgramCommandName) throws {
        let help = try memo.run([name.rawValue, "--help"])
        #expect(help.status == 0)
        #expect(help.standardOutput.hasPrefix("usage: memo"))
    }

    /// `memo run -h` and the others print that mode's help, not the whole program's: its
    /// usage, what it does, and the options it takes, each explained.
    @Test(arguments: ProgramCommandName.allCases.filter(\.isOffered), ["-h", "--help"])
    func eachModeHasItsOwnHelp(_ name: ProgramCommandName, _ option: String) throws {
        let help = try memo.run([name.rawValue, option])
        #expect(help.status == 0)
        let syntax = try #require(CommandSyntax.table.first { $0.kind == .program(name) })
        #expect(
            help.standardOutput.hasPrefix(
                "usage: memo \(name.rawValue) \(syntax.usage)\n\n\(syntax.summary)\n\noptions:\n"))
        #expect(!help.standardOutput.contains("commands:"))
        #expect(!help.standardOutput.contains("exit status:"))
        for option in syntax.options { #expect(help.standardOutput.contains("  \(option.spelling)  ")) }
        #expect(help.standardOutput.contains("  --help, -h  "))
        let offered = try memo.run(["__complete", "memo \(name.rawValue) --"]).lines
        let storeOptions: [String] =
            switch name {
            case .test, .completions: []
            case .encrypt, .decrypt: ["--store"]
            default: ["--store", "--in-memory", "--fixture"]
            }
        #expect(
            Set(offered)
                == Set((syntax.options.flatMap(\.names) + ["--help"] + storeOptions).filter { $0.hasPrefix("--") }))
    }

    /// `memo run --store x -h`: the store options too explain themselves there.
    @Test func aModesHelpExplainsTheProgramOptionsItsUsageNames() throws {
        let help = try memo.run(["run", "--store", "x.sqlite", "-h"]).standardOutput
        #expect(help.contains("\n  --store PATH  "))
        #expect(help.contains("\n  --echo  ") || help.contains("\n  --echo "))
        #expect(!help.contains("--update"))
        #expect(
            try memo.run(["sync", "-h"]).standardOutput.hasPrefix(
                "usage: sync PATH|[USER@]HOST:PATH|ssh://[USER@]HOST[:PORT]/PATH [--remote-memo PROGRAM] [--allow-plaintext]\n\nMerge this store"
            ))
    }

    /// Before a command, completion offers the program's commands and the language's names
    /// and aliases, all from the table, in the order the shells show them (by text: the
    /// scripts keep memo's order, so ids can come by number).
    @Test func completionOffersTheWholeTable() throws {
        let language = CommandSyntax.all.flatMap { [$0.name] + $0.aliases }
        #expect(
            try memo.run(["__complete", "memo "]).lines
                == (CommandSyntax.offeredProgramCommands.map(\.rawValue) + language).sorted())
    }
}
