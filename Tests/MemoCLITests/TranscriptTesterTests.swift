import Foundation
import MemoTestSupport
import Testing

@Suite("memo test: the transcript tester")
struct TranscriptTesterTests {
    let memo = MemoBinary()

    private let good = """
        A good transcript.
        memo> add hello @x
        added #1
        memo> list
        #1  2000-01-01 00:00:00  hello @x
        memo> show 9
        error: no memo #9

        """

    private let bad = """
        A transcript whose second answer is wrong.
        memo> add hello
        added #1
        memo> count
        2
        memo> tags

        """

    @Test func goodTranscriptsPass() throws {
        let path = memo.path("good.transcript")
        try good.write(toFile: path, atomically: true, encoding: .utf8)
        let result = try memo.run(["test", path, path])
        #expect(result.status == 0)
        #expect(result.standardOutput == "2 passed, 0 failed\n")
    }

    @Test func badTranscriptFailsWithADiffThenUpdateRepairsIt() throws {
        let goodPath = memo.path("good.transcript")
        let badPath = memo.path("bad.transcript")
        try good.write(toFile: goodPath, atomically: true, encoding: .utf8)
        try bad.write(toFile: badPath, atomically: true, encoding: .utf8)

        let failed = try memo.run(["test", goodPath, badPath])
        #expect(failed.status == 1)
        #expect(
            failed.standardOutput == """
                \(badPath):4: error: output differs from the transcript
                --- \(badPath)
                +++ \(badPath) (actual)
                @@ -2,5 +2,5 @@
                 memo> add hello
                 added #1
                 memo> count
                -2
                +1
                 memo> tags
                1 passed, 1 failed

                """)

        let updated = try memo.run(["test", "--update", badPath])
        #expect(updated.status == 0)
        #expect(updated.standardOutput == "\(badPath): updated\n1 passed, 0 failed\n")
        #expect(
            try String(contentsOfFile: badPath, encoding: .utf8)
                == bad.replacingOccurrences(of: "count\n2\n", with: "count\n1\n"))
        #expect(try memo.run(["test", badPath]).standardOutput == "1 passed, 0 failed\n")
    }

    /// Each file that cannot be read fails with the system's reason on standard error.
    @Test func unreadableTranscriptFails() throws {
        let missing = memo.path("missing.transcript"), folder = memo.path("folder.transcript")
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        let invalid = memo.path("latin1.transcript")
        try Data([0x6D, 0x65, 0x6D, 0x6F, 0x3E, 0x20, 0xE9, 0x0A]).write(to: URL(fileURLWithPath: invalid))
        let result = try memo.run(["test", missing, folder, invalid])
        #expect(result.status == 1)
        #expect(result.standardOutput == "0 passed, 3 failed\n")
        #expect(
            result.standardError == """
                error: cannot read \(missing): No such file or directory
                error: cannot read \(folder): it is a folder
                error: cannot read \(invalid): it is not valid UTF-8 text

                """)
        #expect(try memo.run(["test"]).status == 2)
    }

    /// CRLF line ends and a byte-order mark do not hide a wrong expectation; a file with no
    /// command is not a passing test.
    @Test func crlfBOMEmptyAndCommentOnlyTranscripts() throws {
        let crlf = memo.path("crlf.transcript")
        try bad.replacingOccurrences(of: "\n", with: "\r\n").write(toFile: crlf, atomically: true, encoding: .utf8)
        #expect(try memo.run(["test", crlf]).standardOutput.hasSuffix("0 passed, 1 failed\n"))
        let bom = memo.path("bom.transcript")
        try ("\u{FEFF}" + good).write(toFile: bom, atomically: true, encoding: .utf8)
        #expect(try memo.run(["test", bom]).standardOutput == "1 passed, 0 failed\n")
        let empty = memo.path("empty.transcript"), comments = memo.path("comments.transcript")
        try "".write(toFile: empty, atomically: true, encoding: .utf8)
        try "Only a comment.\nAnd another.\n".write(toFile: comments, atomically: true, encoding: .utf8)
        let result = try memo.run(["test", empty, comments])
        #expect(result.status == 1)
        #expect(result.standardOutput == "0 passed, 2 failed\n")
        #expect(result.standardError.components(separatedBy: "no command in the transcript").count == 3)
    }

    /// `--update` writes a transcript that passes, also when a memo's lines look like prompts.
    @Test func updatedTranscriptPassesWithPromptLikeOutput() throws {
        let path = memo.path("prompts.transcript")
        try "memo> add <<END\n...> memo> hello\n...> ...> there\n...> END\nmemo> show 1\nmemo> quit\nmemo> count\n0\n"
            .write(toFile: path, atomically: true, encoding: .utf8)
        let update = try memo.run(["test", "--update", path])
        #expect(update.standardOutput.hasSuffix("1 passed, 0 failed\n"))
        let written = try String(contentsOfFile: path, encoding: .utf8)
        #expect(
            written.hasSuffix("\n\\memo> hello\n\\...> there\nmemo> quit\n"), "escaped, and the session ends at quit")
        #expect(try memo.run(["test", path]).standardOutput == "1 passed, 0 failed\n")
    }
}

@Suite("Commands piped on standard input")
struct PipedInputTests {
    @Test func eachLineRunsAsItArrives() throws {
        let memo = MemoBinary()
        let process = Process()
        process.executableURL = URL(fileURLWithPath: MemoBinary.executable)
        process.arguments = ["--in-memory"]
        process.environment = memo.environment
        let input = Pipe(), output = Pipe()
        process.standardInput = input
        process.standardOutput = output
        try process.run()
        defer { process.terminate() }

        input.fileHandleForWriting.write(Data("add first\n".utf8))
        #expect(try readLine(from: output.fileHandleForReading) == "added #1")
        input.fileHandleForWriting.write(Data("count\n".utf8))
        #expect(try readLine(from: output.fileHandleForReading) == "1")
        try input.fileHandleForWriting.close()
        process.waitUntilExit()
        #expect(process.terminationStatus == 0)
    }

    /// Reads one line, failing if it takes more than five seconds (the command did not run
    /// before more input came).
    private func readLine(from handle: FileHandle) throws -> String {
        var bytes: [UInt8] = []
        let deadline = Date().addingTimeInterval(5)
        while Date() < deadline {
            var poller = pollfd(fd: handle.fileDescriptor, events: Int16(POLLIN), revents: 0)
            guard poll(&poller, 1, 100) > 0 else { continue }
            guard let byte = try handle.read(upToCount: 1)?.first else { break }
            if byte == UInt8(ascii: "\n") { return String(decoding: bytes, as: UTF8.self) }
            bytes.append(byte)
        }
        throw CancellationError()
    }
}
