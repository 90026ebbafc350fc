import Foundation

/// What a run of the `memo` binary printed and how it exited.
package struct RunResult {
    package var status: Int32
    package var standardOutput: String
    package var standardError: String

    package var lines: [String] {
        standardOutput.split(separator: "\n", omittingEmptySubsequences: false).dropLast().map(String.init)
    }
}

/// The binary under test: runs the built `memo` in a private temporary folder with a
/// controlled environment.
package final class MemoBinary {
    private let temporary = TemporaryFolder()
    package var folder: String { temporary.path }
    package var environment: [String: String]

    /// The binary SwiftPM built next to this test bundle, or `$MEMO_BINARY`.
    package static let executable: String = {
        if let path = ProcessInfo.processInfo.environment["MEMO_BINARY"] { return path }
        let bundle = URL(fileURLWithPath: CommandLine.arguments[0]).deletingLastPathComponent()
        return bundle.appendingPathComponent("memo").path
    }()

    package init() {
        environment = ["HOME": temporary.file("home"), "PATH": "/usr/bin:/bin", "TZ": "UTC", "LANG": "C.UTF-8"]
    }

    package func path(_ name: String) -> String { temporary.file(name) }

    /// Runs `memo ARGUMENTS` with `input` on standard input.
    @discardableResult
    package func run(_ arguments: [String], input: String = "") throws -> RunResult {
        try launch(Self.executable, arguments, input: input)
    }

    /// Runs a shell command with `$MEMO` naming the binary: for arguments a `Process` cannot
    /// pass, such as invalid UTF-8.
    package func shell(_ script: String) throws -> RunResult {
        try launch("/bin/sh", ["-c", script], input: "", extraEnvironment: ["MEMO": Self.executable])
    }

    private func launch(
        _ executable: String, _ arguments: [String], input: String,
        extraEnvironment: [String: String] = [:]
    ) throws -> RunResult {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: executable)
        process.arguments = arguments
        process.environment = environment.merging(extraEnvironment) { $1 }
        process.currentDirectoryURL = URL(fileURLWithPath: folder)
        let output = Pipe(), errors = Pipe(), standardInput = Pipe()
        process.standardOutput = output
        process.standardError = errors
        process.standardInput = standardInput
        try process.run()
        standardInput.fileHandleForWriting.write(Data(input.utf8))
        try standardInput.fileHandleForWriting.close()
        let outputData = output.fileHandleForReading.readDataToEndOfFile()
        let errorData = errors.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        return RunResult(
            status: process.terminationStatus,
            standardOutput: String(decoding: outputData, as: UTF8.self),
            standardError: String(decoding: errorData, as: UTF8.self))
    }
}
