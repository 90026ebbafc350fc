import MemoTestSupport
import Testing

/// The commands only the faces build (the server's save of a memo's file and its taking back
/// of a refused move, `--fixture`'s load) run through `Notebook.execute` like the others, but
/// no user spells them: the command line refuses them and no help, manual page or completion
/// names them.
@Suite("Commands the faces build")
struct HiddenCommandTests {
    let memo = MemoBinary()

    @Test(arguments: ["editIfStill", "withdraw", "preload"])
    func areNamedNowhereAUserReadsAndTheCommandLineRefusesThem(_ name: String) throws {
        let refused = try memo.run(["--in-memory", name, "1"])
        #expect(refused.status == 2)
        #expect(refused.standardError.contains("unknown command '\(name)'"))
        #expect(!(try memo.run(["help"]).standardOutput.contains(name)))
        #expect(!(try memo.run(["__manual"]).standardOutput.contains(name)))
        #expect(!(try memo.run(["__complete", "memo "]).lines.contains(name)))
        #expect(try memo.run(["__complete", "memo \(name.dropLast())"]).lines.isEmpty)
    }
}
