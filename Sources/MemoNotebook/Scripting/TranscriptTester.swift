import Foundation
import MemoStore

/// Checks transcripts: `memo test`. Each file runs in a fresh deterministic in-memory store
/// and is one test; a mismatch prints a unified diff; the last line is `N passed, N failed`.
package struct TranscriptTester {
    private let output: OutputSink
    private let update: Bool

    /// - Parameter update: rewrite each file with the output memo prints now.
    package init(output: OutputSink, update: Bool) {
        self.output = output
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

    /// The transcript with the output each command prints when run.
    package static func replay(_ transcript: Transcript) throws(StoreError) -> Transcript {
        let notebook = Notebook(store: try MemoStore.open(.memory), clock: DeterministicClock(),
                                uuids: SequentialUUIDs(), displayTime: .utc)
        let captured = StringOutput()
        let renderer = TextRenderer(style: TextStyle(width: 80, color: false, displayTime: .utc))
        let interpreter = LineInterpreter(notebook: notebook, renderer: renderer, output: captured) { message, _ in
            captured.write("error: \(message)\n")
        }
        var actual = transcript
        for index in actual.exchanges.indices {
            let exchange = actual.exchanges[index]
            _ = interpreter.feed(exchange.command, lineNumber: exchange.lineNumber)
            for line in exchange.continuation { _ = interpreter.feed(line, lineNumber: exchange.lineNumber) }
            if interpreter.isContinuing { _ = interpreter.finish() }
            var lines = captured.take().split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
            if lines.last == "" { lines.removeLast() }
            actual.exchanges[index].expectedOutput = lines
        }
        return actual
    }

    private func check(_ path: String) -> Bool {
        guard let data = FileManager.default.contents(atPath: path),
              let text = String(validating: data, as: UTF8.self) else {
            output.write("\(path): error: cannot read the transcript as UTF-8 text\n")
            return false
        }
        let expected = Transcript(parsing: text)
        let actual: Transcript
        do {
            actual = try Self.replay(expected)
        } catch {
            output.write("\(path): error: \(error)\n")
            return false
        }
        guard actual != expected else { return true }
        if update {
            do {
                try (actual.lines.joined(separator: "\n") + "\n").write(toFile: path, atomically: true, encoding: .utf8)
                output.write("\(path): updated\n")
                return true
            } catch {
                output.write("\(path): error: cannot update: \(error.localizedDescription)\n")
                return false
            }
        }
        let firstDifference = zip(expected.exchanges, actual.exchanges).first { $0 != $1 }?.0.lineNumber ?? 1
        output.write("\(path):\(firstDifference): error: output differs from the transcript\n")
        output.write(UnifiedDiff.diff(expected.lines, actual.lines, oldName: path, newName: "\(path) (actual)"))
        return false
    }
}
