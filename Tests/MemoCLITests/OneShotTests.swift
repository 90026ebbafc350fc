import Foundation
import MemoTestSupport
import Testing

@Suite("One-shot commands")
struct OneShotTests {
    let memo = MemoBinary()

    init() {
        memo.environment["MEMO_STORE"] = memo.path("store.sqlite")
    }

    @Test func addListShowEditDeleteAsText() throws {
        #expect(try memo.run(["add", "Buy", "milk", "@shop"]).standardOutput == "added #1\n")
        #expect(try memo.run(["add", "--tag", "Work", "Ship it"]).standardOutput == "added #2\n")
        let list = try memo.run(["list"])
        #expect(list.status == 0)
        #expect(list.lines.count == 2)
        #expect(list.lines[0].hasPrefix("#2  ") && list.lines[0].hasSuffix("  Ship it  @work"))
        // A tag the shown text already shows is not repeated at the end of the line.
        #expect(list.lines[1].hasPrefix("#1  ") && list.lines[1].hasSuffix("  Buy milk @shop"))
        #expect(try memo.run(["list", "-n", "1", "--asc"]).lines.map { $0.prefix(3) } == ["#1 "])

        #expect(try memo.run(["edit", "1", "Buy", "oat", "milk"]).standardOutput == "edited #1\n")
        let shown = try memo.run(["show", "1"]).standardOutput
        #expect(shown.contains("\ntags:     none\n\nBuy oat milk\n"))
        #expect(!shown.contains("updated:  never"))

        #expect(try memo.run(["rm", "1", "2"]).standardOutput == "deleted #1 #2\n")
        #expect(try memo.run(["count"]).standardOutput == "0\n")
    }

    @Test func jsonOutput() throws {
        try memo.run(["add", "first @a"])
        let added = try memo.run(["--json", "add", "second"])
        let object = try JSONSerialization.jsonObject(with: Data(added.standardOutput.utf8)) as? [String: Any]
        #expect(object?["id"] as? Int == 2)
        #expect(object?["content"] as? String == "second")
        #expect(object?["updateDate"] is NSNull)
        let uuid = try #require(object?["uuid"] as? String)
        #expect(uuid.wholeMatch(of: /[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}/) != nil)
        let date = try #require(object?["insertDate"] as? String)
        #expect(date.wholeMatch(of: /\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z/) != nil)

        let list = try memo.run(["--json", "list"])
        let ids = try list.lines.map { line in
            (try JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any])?["id"] as? Int
        }
        #expect(ids == [2, 1])
        #expect(try memo.run(["--json", "count"]).standardOutput == "{\"count\":2}\n")
        #expect(try memo.run(["--json", "tags"]).standardOutput == "{\"tags\":[{\"name\":\"a\",\"count\":1}]}\n")
        #expect(try memo.run(["--json", "delete", "1"]).standardOutput == "{\"deleted\":[1]}\n")
        let info = try memo.run(["--json", "info"]).standardOutput
        #expect(
            info.contains(
                "\"mode\":\"disk\",\"path\":\"\(memo.path("store.sqlite"))\",\"schemaVersion\":13,\"memoCount\":1"))
        #expect(info.contains("\"journalMode\":\"wal\""))
    }

    @Test func exitStatuses() throws {
        try memo.run(["add", "one"])
        let notFound = try memo.run(["delete", "1", "99"])
        #expect(notFound.status == 1)
        #expect(notFound.standardError == "error: no memo #99\n")
        #expect(try memo.run(["count"]).standardOutput == "1\n")

        let badOption = try memo.run(["list", "--bogus"])
        #expect(badOption.status == 2)
        #expect(badOption.standardError == "error: unknown option '--bogus' for 'list'\n")
        #expect(try memo.run(["--bogus"]).status == 2)
        #expect(try memo.run(["frobnicate"]).standardError == "error: unknown command 'frobnicate' (try 'help')\n")
        #expect(try memo.run(["list", "--since", "someday"]).status == 1)
        #expect(
            try memo.run(["show", "abc"]).standardError
                == "error: invalid memo id 'abc': expected a positive number, memo:HANDLE or memo:UUID\n")
        #expect(try memo.run(["--version"]).standardOutput.hasPrefix("memo "))
        let help = try memo.run(["--help"])
        #expect(help.status == 0 && help.standardOutput.hasPrefix("usage: memo"))
        #expect(try memo.run(["help", "list"]).standardOutput.hasPrefix("usage: list"))
    }

    /// A write to standard output that fails (other than a closed pipe) fails the command.
    @Test func failedOutputIsAnError() throws {
        try memo.run(["add", "one"])
        let full = try memo.shell("$MEMO --json list > /dev/full")
        #expect(full.status == 1)
        #expect(full.standardError == "error: cannot write the output: No space left on device\n")
        #expect(try memo.shell("$MEMO list | head -c 0").status == 0)
    }

    /// One-shot export and import: the file follows the umask (private under 077), the
    /// summary is text or JSON, a malformed record is reported at its line with exit status 1
    /// and changes nothing.
    @Test func exportAndImportFromTheShell() throws {
        try memo.run(["add", "Buy milk @shop"])
        try memo.run(["add", "旅行の準備"])
        let file = memo.path("backup.json")
        #expect(try memo.shell("umask 077; $MEMO export '\(file)'").standardOutput == "exported 2 memos to \(file)\n")
        #expect(FileManager.default.mode(of: file) == 0o600)
        let other = memo.path("other.sqlite")
        let imported = try memo.run(["--store", other, "--json", "import", file])
        #expect(
            imported.standardOutput
                == "{\"added\":2,\"updated\":0,\"skipped\":0,\"empty\":0,\"addedUnderNewUUID\":0,\"alreadyThere\":0,\"notNewer\":0}\n"
        )
        #expect(try memo.run(["--store", other, "search", "旅行"]).lines.count == 1)
        #expect(
            try memo.run(["--store", other, "export", "-"]).standardOutput == memo.run(["export", "-"]).standardOutput)

        let broken = memo.path("broken.jsonl")
        try "{\"content\":\"fine\"}\n{\"content\": 3}\n".write(toFile: broken, atomically: true, encoding: .utf8)
        let failed = try memo.run(["import", broken])
        #expect(failed.status == 1)
        #expect(failed.standardError == "\(broken):2: error: \"content\" must be a string\n")
        #expect(try memo.run(["count"]).standardOutput == "2\n")
        let search = try memo.run(["search", "\"open"])
        #expect(search.status == 1)
        #expect(search.standardError == "error: invalid search '\"open': a quote (\") is not closed\n")
    }

    @Test func contentChecks() throws {
        let empty = try memo.run(["add", "   "])
        #expect(empty.status == 1)
        // A first command that fails leaves no store file, and says none was created.
        #expect(empty.standardError == "error: memo text is empty\n")
        #expect(!FileManager.default.fileExists(atPath: memo.path("store.sqlite")))
        let invalid = try memo.shell(#"$MEMO add "caf$(printf '\351')""#)
        #expect(invalid.status == 1)
        #expect(invalid.standardError == "error: argument 2 is not valid UTF-8\n")
        // One argument is capped at 128 KiB by Linux, so the largest memos come through stdin.
        let largest = String(repeating: "a", count: 1 << 20)
        let huge = try memo.run([], input: "add \(largest)a\nadd \(largest)\n")
        #expect(huge.status == 1)
        // The failed first line created no store file; the second, which succeeds, does.
        #expect(
            huge.standardError
                == "<stdin>:1: error: memo text is 1048577 bytes; the limit is 1048576 (1 MiB)\n"
                + "memo: created a new store at \(memo.path("store.sqlite"))\n")
        #expect(huge.standardOutput == "added #1\n")
        try memo.run(["delete", "1"])
        #expect(try memo.run(["count"]).standardOutput == "0\n")
    }

    /// An empty argument (`memo add "$unset"`) is an error of its command, never a crash.
    @Test func emptyArgumentsAreErrorsNotCrashes() throws {
        for (arguments, status, error) in [
            (["add", ""], 1, "error: memo text is empty\n"),
            (["list", ""], 2, "error: unexpected argument '' for 'list'\n"),
            (["search", ""], 1, "error: invalid search '': nothing to search for\n"),
            (["show", ""], 1, "error: invalid memo id '': expected a positive number, memo:HANDLE or memo:UUID\n")
        ] {
            let result = try memo.run(["--in-memory"] + arguments)
            #expect(result.status == status, "\(arguments)")
            #expect(result.standardError == error, "\(arguments)")
        }
    }

    @Test func sqlLookingTextIsStoredVerbatim() throws {
        let text = "'); DROP TABLE memo; -- \"and\" %_ ?1"
        try memo.run(["add", text])
        let list = try memo.run(["--json", "list"]).standardOutput
        #expect(list.contains(#""content":"'); DROP TABLE memo; -- \"and\" %_ ?1""#))
    }

    @Test func inMemoryLeavesNoFile() throws {
        #expect(try memo.run(["--in-memory", "add", "gone"]).standardOutput == "added #1\n")
        #expect(try memo.run(["--in-memory", "count"]).standardOutput == "0\n")
        #expect(!FileManager.default.fileExists(atPath: memo.path("store.sqlite")))
    }

    @Test func commandsFromStandardInput() throws {
        let result = try memo.run([], input: "add <<END\nfirst line\nsecond line\nEND\nlist -n 1\nnope\ncount\n")
        #expect(result.standardOutput.hasPrefix("added #1\n#1  "))
        #expect(result.standardOutput.hasSuffix("first line …\n1\n"))
        #expect(
            result.standardError
                == "memo: created a new store at \(memo.path("store.sqlite"))\n<stdin>:6: error: unknown command 'nope' (try 'help')\n"
        )
        #expect(result.status == 1)
    }

    /// Piped commands name the line of an error, as `memo run` and sqlite3 do; a `quit` that
    /// leaves a batch unsaved is named as what ended the input.
    @Test func pipedErrorsNameTheirLine() throws {
        let result = try memo.run([], input: "add z\nbogus\nbegin\nadd x\nquit\nadd never run\n")
        #expect(
            result.standardError == """
                memo: created a new store at \(memo.path("store.sqlite"))
                <stdin>:2: error: unknown command 'bogus' (try 'help')
                <stdin>:5: error: quit inside a batch: its 1 unsaved change was rolled back

                """)
        #expect(result.status == 1)
        #expect(try memo.run(["count"]).standardOutput == "1\n")
    }
}
