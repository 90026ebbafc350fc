import MemoNotebook
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

    /// Before a command, completion offers the program's commands, then the language's
    /// names and aliases, all from the table in its order.
    @Test func completionOffersTheWholeTable() throws {
        let language = CommandSyntax.all.flatMap { [$0.name] + $0.aliases }
        #expect(try memo.run(["__complete", "memo "]).lines == CommandSyntax.offeredProgramCommands.map(\.rawValue) + language)
    }
}
