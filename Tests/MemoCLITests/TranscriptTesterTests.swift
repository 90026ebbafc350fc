import Foundation
import Testing

@Suite("memo test: the transcript tester")
struct TranscriptTesterTests {
    let memo = MemoBinary()

    private let good = """
        A good transcript.
        memo> add hello @x
        added #1
        memo> list
        #1  2000-01-01 00:00:00  hello @x  @x
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
        #expect(failed.standardOutput == """
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
        #expect(try String(contentsOfFile: badPath, encoding: .utf8) == bad.replacingOccurrences(of: "count\n2\n", with: "count\n1\n"))
        #expect(try memo.run(["test", badPath]).standardOutput == "1 passed, 0 failed\n")
    }

    @Test func unreadableTranscriptFails() throws {
        let result = try memo.run(["test", memo.path("missing.transcript")])
        #expect(result.status == 1)
        #expect(result.standardOutput.hasSuffix("0 passed, 1 failed\n"))
        #expect(try memo.run(["test"]).status == 2)
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
