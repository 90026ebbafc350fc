import FoundationEssentials
import Glibc
import MemoStore

/// Checks transcripts: `memo test`. Each file runs in a fresh deterministic in-memory store
/// and is one test; a mismatch prints a unified diff; the last line is `N passed, N failed`.
/// A file that cannot be read, or holds no command, fails with its reason on `errors`.
package struct TranscriptTester {
    private let output: OutputSink
    private let errors: OutputSink
    private let update: Bool

    /// - Parameter update: rewrite each file with the output memo prints now.
    package init(output: OutputSink, errors: OutputSink, update: Bool) {
        self.output = output
        self.errors = errors
        self.update = update
    }

    package func test(_ paths: [String]) -> ExitStatus {
        var passed = 0, failed = 0
        for path in paths {
            if check(path) { passed += 1 } else { failed += 1 }
            output.flush()
        }
        output.write("\(passed) passed, \(failed) failed\n")
        return failed == 0 ? .success : .failure
    }

    /// The transcript with the output each command prints when run. Like the REPL, it ends
    /// at `quit`: the commands after it are not part of the session.
    package static func replay(_ transcript: Transcript) throws(StoreError) -> Transcript {
        let notebook = Notebook(
            store: try MemoStore.open(.memory), clock: DeterministicClock(),
            uuids: SequentialUUIDs(), displayTime: .utc)
        let captured = StringOutput()
        let renderer = TextRenderer(style: TextStyle(width: 80, color: false, displayTime: .utc))
        let interpreter = LineInterpreter(notebook: notebook, renderer: renderer, output: captured) { error, _ in
            captured.write(errorReport(error) + "\n")
        }
        var actual = transcript
        for index in actual.exchanges.indices {
            let exchange = actual.exchanges[index]
            var status = interpreter.feed(exchange.command, lineNumber: exchange.lineNumber)
            for line in exchange.continuation { status = interpreter.feed(line, lineNumber: exchange.lineNumber) }
            if interpreter.isContinuing { status = interpreter.finish() }
            actual.exchanges[index].expectedOutput = TextFile.lines(of: captured.take())
            if status == .quit {
                actual.exchanges.removeSubrange((index + 1)...)
                break
            }
        }
        return actual
    }

    private func check(_ path: String) -> Bool {
        let expected: Transcript
        do {
            expected = Transcript(parsing: try TextFile.read(path))
        } catch {
            return fail(errorReport(error))
        }
        guard !expected.exchanges.isEmpty else {
            return fail(
                "\(path): error: no command in the transcript: commands are lines that start with '\(Transcript.prompt)'"
            )
        }
        let actual: Transcript
        do {
            actual = try Self.replay(expected)
        } catch {
            return fail("\(path): error: \(error)")
        }
        guard actual != expected else { return true }
        if update {
            do {
                try (actual.lines.joined(separator: "\n") + "\n").write(toFile: path, atomically: true, encoding: .utf8)
                output.write("\(path): updated\n")
                return true
            } catch {
                return fail("\(path): error: cannot update: \(failureReason(error))")
            }
        }
        let firstDifference =
            zip(expected.exchanges, actual.exchanges).first { $0 != $1 }?.0.lineNumber
            ?? expected.exchanges.dropFirst(actual.exchanges.count).first?.lineNumber ?? 1
        output.write("\(path):\(firstDifference): error: output differs from the transcript\n")
        output.write(UnifiedDiff.diff(expected.lines, actual.lines, oldName: path, newName: "\(path) (actual)"))
        return false
    }

    private func fail(_ report: String) -> Bool {
        output.flush()
        errors.write(report + "\n")
        errors.flush()
        return false
    }
}
