import Foundation
import MemoTestSupport
import Testing

@Suite("Scripting mode: memo run")
struct ScriptingTests {
    let memo = MemoBinary()

    private func write(_ text: String, to name: String) throws -> String {
        let path = memo.path(name)
        try text.write(toFile: path, atomically: true, encoding: .utf8)
        return path
    }

    @Test func outputIsDeterministicAndIdenticalOnEveryRun() throws {
        let script = try write("add first @a\nadd <<END\nsecond\nline\nEND\nlist\nshow 1\n", to: "script.memo")
        let first = try memo.run(["run", script])
        #expect(first.status == 0)
        #expect(
            first.standardOutput == """
                added #1
                added #2
                #2  2000-01-01 00:00:01  second …
                #1  2000-01-01 00:00:00  first @a
                #1
                uuid:     a63ae090-249f-4364-8233-000000000001
                handle:   memo:a63ae090
                inserted: 2000-01-01 00:00:00
                updated:  never
                tags:     @a

                first @a

                """)
        memo.environment["TZ"] = "Asia/Tokyo"
        memo.environment["COLUMNS"] = "20"
        #expect(try memo.run(["run", script]).standardOutput == first.standardOutput)
        let json = try memo.run(["--json", "run", script]).lines
        #expect(
            json.first
                == #"{"id":1,"uuid":"a63ae090-249f-4364-8233-000000000001","content":"first @a","insertDate":"2000-01-01T00:00:00.000Z","updateDate":null,"tags":["a"]}"#
        )
    }

    @Test func firstErrorStopsWithFileAndLine() throws {
        let script = try write("add one\n\n# comment\nshow 7\nadd never\n", to: "stops.memo")
        let result = try memo.run(["run", script])
        #expect(result.status == 1)
        #expect(result.standardOutput == "added #1\n")
        #expect(result.standardError == "\(script):4: error: no memo #7\n")
    }

    @Test func keepGoingRunsOnAndStillFails() throws {
        let first = try write("add one\nbogus\n", to: "first.memo")
        let second = try write("list -n x\nadd two\ncount\n", to: "second.memo")
        let result = try memo.run(["run", "--keep-going", first, second])
        #expect(result.status == 1)
        #expect(result.standardOutput == "added #1\nadded #2\n2\n")
        #expect(
            result.standardError == """
                \(first):2: error: unknown command 'bogus' (try 'help')
                \(second):1: error: invalid number 'x' for '-n': expected 0 or more

                """)
    }

    @Test func filesShareOneStoreAndDashReadsStandardInput() throws {
        let file = try write("add from the file\n", to: "one.memo")
        let result = try memo.run(["run", file, "-"], input: "add from stdin\ncount\n")
        #expect(result.standardOutput == "added #1\nadded #2\n2\n")
        let error = try memo.run(["run", "-"], input: "add ok\nshow 5\n")
        #expect(error.standardError == "<stdin>:2: error: no memo #5\n")
    }

    @Test func echoPrintsCommandsAsATranscript() throws {
        let script = try write("# setup\nadd <<END\nbody\nEND\ncount\n", to: "echo.memo")
        let result = try memo.run(["run", "--echo", script])
        #expect(result.standardOutput == "memo> add <<END\n...> body\n...> END\nadded #1\nmemo> count\n1\n")
    }

    /// The lines after a heredoc opener are text, also when the line is not a valid command:
    /// they are never run, in piped input or in a script that keeps going.
    @Test func heredocBodiesNeverRunAsCommands() throws {
        let store = memo.path("heredoc.sqlite")
        try memo.run(["--store", store, "add", "important"])
        let body = "delete 1\nEND\n"
        let openers = [
            "ad <<END", "add --bogus <<END", "edit x <<END", "list <<END", "add <<'END'", "add << END", #"add <<"END""#
        ]
        let piped = try memo.run(["--store", store], input: openers.map { $0 + "\n" + body }.joined() + "count\n")
        #expect(!piped.standardOutput.contains("deleted"))
        #expect(!piped.standardError.contains("unknown command 'END'"))
        #expect(piped.standardOutput.hasSuffix("4\n"))
        #expect(try memo.run(["--store", store, "show", "1"]).status == 0, "#1 was not deleted")
        #expect(
            piped.standardOutput.components(separatedBy: "added #").count == 4,
            "the three shell spellings each add their body")
        let added = try memo.run(["--store", store, "--json", "list", "-n", "3"]).lines
        #expect(added.allSatisfy { $0.contains(#""content":"delete 1""#) })
        let script = try write(openers[0] + "\n" + body + "add <<END  \nkept\nEND \t\ncount\n", to: "keep.memo")
        let result = try memo.run(["run", "--keep-going", script])
        #expect(result.standardOutput == "added #1\n1\n")
        #expect(result.standardError == "\(script):1: error: unknown command 'ad' (try 'help')\n")
    }

    /// A script run against a store file gives its memos random uuids: the deterministic
    /// sequence is shared by every scripted store, and syncs would merge unrelated memos.
    @Test func scriptsWriteRandomUUIDsToStoreFiles() throws {
        let script = try write("add Alice: dentist\nadd Alice: rent\n", to: "alice.memo")
        for name in ["one.sqlite", "two.sqlite"] {
            #expect(try memo.run(["run", "--store", memo.path(name), script]).status == 0)
        }
        let uuids = try ["one.sqlite", "two.sqlite"].flatMap { name in
            try memo.run(["--store", memo.path(name), "--json", "list"]).lines.compactMap {
                $0.firstMatch(of: /"uuid":"([^"]+)"/)?.1
            }
        }
        #expect(uuids.count == 4 && Set(uuids).count == 4)
        #expect(uuids.allSatisfy { !$0.hasPrefix("00000000-0000-4000-8000-") })
        let inMemory = try memo.run(["--json", "run", script]).standardOutput
        #expect(
            inMemory.contains(#""uuid":"56660ab3-978e-42b2-8de5-000000000001""#), "in memory, uuids stay deterministic")
    }

    /// A script run against a store file dates its changes when it runs: dates of 2000 would
    /// sort before every memo typed, and an older export imported later would overwrite an
    /// edit the script made. `clock DATE` still dates them on purpose.
    @Test func scriptsDateWhatTheyWriteToStoreFilesWhenTheyRun() throws {
        let store = memo.path("dated.sqlite")
        #expect(try memo.run(["--store", store, "add", "original"]).status == 0)
        #expect(try memo.run(["--store", store, "edit", "1", "edited today"]).status == 0)
        #expect(try memo.run(["--store", store, "export", memo.path("old.jsonl")]).status == 0)
        let script = try write("edit 1 newest text, from a script\nadd written by a script\n", to: "edit.memo")
        #expect(try memo.run(["run", "--store", store, script]).status == 0)
        let dates = try memo.run(["--store", store, "--json", "list"]).lines.compactMap {
            $0.firstMatch(of: /"(?:insert|update)Date":"(\d{4})/)?.1
        }
        #expect(!dates.isEmpty && dates.allSatisfy { $0 != "2000" })
        let imported = try memo.run(["--store", store, "import", memo.path("old.jsonl")])
        #expect(imported.standardOutput.contains("0 updated"))
        #expect(try memo.run(["--store", store, "show", "1"]).standardOutput.contains("newest text, from a script"))
        let dated = try write("clock 2020-05-01\nadd dated on purpose\n", to: "dated.memo")
        #expect(try memo.run(["run", "--store", store, dated]).status == 0)
        #expect(
            try memo.run(["--store", store, "--json", "list", "-n", "1", "--asc"]).standardOutput.contains(
                #""insertDate":"2020-05-01T00:00:00.000Z""#))
        let added = try write("add written in memory\n", to: "memory.memo")
        let inMemory = try memo.run(["--json", "run", added]).standardOutput
        #expect(
            inMemory.contains(#""insertDate":"2000-01-01T00:00:00.000Z""#), "in memory, the clock stays deterministic")
    }

    /// Deterministic uuids skip those the store holds: a script replayed on the same store,
    /// or a fixture loaded twice, adds memos instead of failing.
    @Test func replayingOnAStoreNeverReusesAUUID() throws {
        let script = try write("add one\nadd two\n", to: "twice.memo")
        let store = memo.path("twice.sqlite")
        #expect(try memo.run(["run", "--store", store, script]).status == 0)
        let second = try memo.run(["run", "--store", store, script])
        #expect(second.standardError == "")
        #expect(second.standardOutput == "added #3\nadded #4\n")
        #expect(try memo.run(["--store", store, "--fixture", "sample", "count"]).status == 0)
        let again = try memo.run(["--store", store, "--fixture", "sample", "count"])
        #expect(again.standardError == "")
        let uuids = try memo.run(["--store", store, "--json", "list"]).lines.compactMap {
            $0.firstMatch(of: /"uuid":"([^"]+)"/)?.1
        }
        #expect(uuids.count == Int(again.standardOutput.dropLast()))
        #expect(Set(uuids).count == uuids.count)
    }

    /// Scripts with CRLF line ends or a byte-order mark run like any other.
    @Test func crlfAndByteOrderMarkInScripts() throws {
        let script = try write("\u{FEFF}add one\r\nadd <<END\r\ntwo\r\nEND\r\nshow 2\r\n", to: "windows.memo")
        let result = try memo.run(["--json", "run", script])
        #expect(result.standardError == "")
        #expect(result.lines.last?.contains(#""content":"two""#) == true)
        let piped = try memo.run(["--in-memory"], input: "\u{FEFF}add one\r\ncount\r\n")
        #expect(piped.standardOutput == "added #1\n1\n")
    }

    @Test func aFolderIsNotAScript() throws {
        let folder = memo.path("scripts")
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        let result = try memo.run(["run", folder])
        #expect(result.status == 1)
        #expect(result.standardError == "error: cannot read \(folder): it is a folder\n")
    }

    /// The README's recipe: what `memo run --echo` prints is a transcript that passes, even
    /// where commands fail or print lines that look like prompts.
    @Test func echoedRunIsATranscriptThatPasses() throws {
        let script = try write(
            "add <<END\nmemo> not a command\n...> nor this\nEND\nshow 1\nshow 9\nadd\ncount\n", to: "recipe.memo")
        let result = try memo.run(["run", "--echo", "--keep-going", script])
        #expect(result.status == 1)
        #expect(
            result.standardError == "\(script):6: error: no memo #9\n\(script):7: error: 'add' needs the memo's text\n")
        #expect(result.standardOutput.contains("memo> show 9\nerror: no memo #9\nmemo> add\n"))
        let transcript = memo.path("recipe.transcript")
        try result.standardOutput.write(toFile: transcript, atomically: true, encoding: .utf8)
        #expect(try memo.run(["test", transcript]).standardOutput == "1 passed, 0 failed\n")
    }

    @Test func clockSetsDatesAndUnfinishedHeredocIsAnError() throws {
        let script = try write("clock 2024-02-29T12:00Z\nadd leap\nlist\nadd <<END\nno end\n", to: "clock.memo")
        let result = try memo.run(["run", script])
        #expect(result.standardOutput == "clock 2024-02-29 12:00:00\nadded #1\n#1  2024-02-29 12:00:00  leap\n")
        #expect(result.standardError == "\(script):4: error: text ended before the heredoc's closing 'END'\n")
        #expect(result.status == 1)
    }

    @Test func runWritesToAStoreOnlyWhenAsked() throws {
        let script = try write("add kept\n", to: "store.memo")
        try memo.run(["run", script])
        #expect(!FileManager.default.fileExists(atPath: memo.path("home/.local/share/memo/memo.sqlite")))
        let store = memo.path("disk.sqlite")
        try memo.run(["run", "--store", store, script])
        #expect(try memo.run(["--store", store, "count"]).standardOutput == "1\n")
    }

    @Test func badInvocations() throws {
        #expect(try memo.run(["run"]).status == 2)
        for face in ["run", "test", "serve"] {
            let help = try memo.run([face, "--help"])
            #expect(help.status == 0)
            #expect(help.standardOutput.hasPrefix("usage: memo"))
        }
        #expect(try memo.run(["run", "--bogus", "x"]).status == 2)
        let missing = try memo.run(["run", memo.path("missing.memo")])
        #expect(missing.status == 1)
        #expect(missing.standardError == "error: cannot read \(memo.path("missing.memo")): No such file or directory\n")
        let invalid = try memo.shell("printf 'add ok\\nadd caf\\351\\ncount\\n' | $MEMO run --keep-going -")
        #expect(invalid.standardOutput == "added #1\n1\n")
        #expect(invalid.standardError == "<stdin>:2: error: the line is not valid UTF-8\n")
    }

    @Test func clockIsRefusedOutsideScriptingMode() throws {
        let result = try memo.run(["--in-memory", "clock", "2024-01-01"])
        #expect(result.status == 1)
        #expect(result.standardError == "error: 'clock' works only in scripting mode (memo run, memo test)\n")
    }
}

@Suite("Fixtures")
struct FixtureTests {
    let memo = MemoBinary()

    @Test(arguments: ["sample", "books"])
    func builtInFixturesLoadAndPreviewTheSameEveryTime(_ name: String) throws {
        let preview = try memo.run(["--fixture", name, "list"])
        #expect(preview.status == 0)
        #expect(preview.standardError == "")
        #expect(preview.lines.count >= 10)
        #expect(try memo.run(["--fixture", name, "list"]).standardOutput == preview.standardOutput)
        let scripted = try memo.run(["run", "--fixture", name, "-"], input: "count\n")
        #expect(scripted.standardOutput == "\(preview.lines.count)\n")
        #expect(!FileManager.default.fileExists(atPath: memo.path("home/.local/share/memo/memo.sqlite")))
    }

    @Test func sampleHasEnglishJapaneseAndKoreanOverSeveralDaysWithTags() throws {
        let memos = try memo.run(["--json", "--fixture", "sample", "list"]).lines
        #expect((18...22).contains(memos.count))
        #expect(memos.contains { $0.contains("\"tags\":[\"work\"]") })
        #expect(memos.contains { $0.unicodeScalars.contains { (0x3040...0x30FF).contains($0.value) } })
        #expect(memos.contains { $0.unicodeScalars.contains { (0xAC00...0xD7A3).contains($0.value) } })
        let days = Set(memos.compactMap { $0.firstMatch(of: /"insertDate":"(\d{4}-\d\d-\d\d)/)?.1 })
        #expect(days.count >= 4)
    }

    @Test func fixturesAreListedWithDescriptions() throws {
        let list = try memo.run(["fixtures"])
        #expect(list.lines.map { String($0.prefix(8)) } == ["books   ", "sample  "])
        #expect(!FileManager.default.fileExists(atPath: memo.path("home/.local/share/memo/memo.sqlite")))
    }

    @Test func fixtureFilesLoadIntoTheChosenStore() throws {
        let fixture = memo.path("mine.memo")
        try "# Mine.\nclock 2020-05-05\nadd from my fixture @mine\n".write(
            toFile: fixture, atomically: true, encoding: .utf8)
        let store = memo.path("chosen.sqlite")
        #expect(
            try memo.run(["--store", store, "--fixture", fixture, "--fixture", "books", "count"]).standardOutput
                == "11\n")
        #expect(
            try memo.run(["--store", store, "list", "--tag", "mine"]).standardOutput.contains(
                "2020-05-05 00:00:00  from my fixture"))
        #expect(
            try memo.run(["--store", store, "fixture", fixture]).standardOutput
                == "loaded fixture \(fixture): 1 memo\n")
    }

    @Test func aFailingFixtureAddsNothing() throws {
        let fixture = memo.path("broken.memo")
        try "add one\nadd two\nshow 99\n".write(toFile: fixture, atomically: true, encoding: .utf8)
        let store = memo.path("untouched.sqlite")
        let result = try memo.run(["--store", store, "--fixture", fixture, "count"])
        #expect(result.status == 1)
        // Not even the store file it would have created.
        #expect(result.standardError == "\(fixture):3: error: no memo #99\n")
        #expect(!FileManager.default.fileExists(atPath: store))
    }
}
