import Glibc

/// Replays command files against one notebook, each line as it arrives: `memo run`, and
/// commands piped to `memo`.
///
/// The first error stops the run unless `keepGoing`; either way the run then ends with
/// status 1 (3 if the store failed).
package final class ScriptRunner {
    /// How an error names where it happened.
    package enum ErrorLocation {
        /// `FILE:LINE: error: MESSAGE`, as scripts report.
        case fileAndLine
        /// `error: MESSAGE`, as the REPL reports (piped input is a REPL without a terminal).
        case none
    }

    private let notebook: Notebook
    private let renderer: OutcomeRenderer
    private let output: OutputSink
    private let errors: OutputSink
    private let echo: Bool
    private let keepGoing: Bool
    private let errorLocation: ErrorLocation

    package init(notebook: Notebook, renderer: OutcomeRenderer, output: OutputSink, errors: OutputSink,
                 echo: Bool = false, keepGoing: Bool, errorLocation: ErrorLocation = .fileAndLine) {
        self.notebook = notebook
        self.renderer = renderer
        self.output = output
        self.errors = errors
        self.echo = echo
        self.keepGoing = keepGoing
        self.errorLocation = errorLocation
    }

    /// Runs `paths` in order; `-` is standard input.
    package func run(_ paths: [String]) -> ExitStatus {
        var status = ExitStatus.success
        for path in paths {
            status = status.worst(runClosingBatch(path))
            if status != .success && !keepGoing { break }
        }
        return status
    }

    /// Runs one file; a batch it leaves open is rolled back, and that is an error.
    private func runClosingBatch(_ path: String) -> ExitStatus {
        let status = run(path)
        guard let discarded = notebook.discardOpenBatch() else { return status }
        let name = path == "-" ? "<stdin>" : path
        report("\(name): error: the input ended inside a batch: its \(discarded) unsaved change\(discarded == 1 ? " was" : "s were") rolled back")
        return status.worst(.failure)
    }

    private func run(_ path: String) -> ExitStatus {
        let name = path == "-" ? "<stdin>" : path
        let descriptor: Int32
        do {
            descriptor = path == "-" ? STDIN_FILENO : try TextFile.open(path)
        } catch {
            report("error: \(error.message)")
            return .failure
        }
        defer { if descriptor != STDIN_FILENO { close(descriptor) } }

        // With --echo, standard output is a transcript: output lines that would read as prompts
        // are escaped, and errors appear where the REPL would show them, too.
        let commandOutput: OutputSink = echo ? TranscriptOutput(output) : output
        let interpreter = LineInterpreter(notebook: notebook, renderer: renderer, output: commandOutput) { [self] error, line in
            if echo { output.write(errorReport(error) + "\n") }
            switch errorLocation {
            case .fileAndLine: report(errorReport(error, file: name, line: line))
            case .none: report(errorReport(error))
            }
        }
        let reader = LineReader(descriptor: descriptor)
        var status = ExitStatus.success
        var lineNumber = 0
        while let line = reader.next() {
            lineNumber += 1
            if echo, case .text(let text) = line { echoLine(text, continuing: interpreter.isContinuing) }
            let result = interpreter.feed(line, lineNumber: lineNumber)
            commandOutput.flush()
            if result == .quit { return status }
            if case .failed(let failure) = result {
                status = status.worst(failure)
                if !keepGoing { return status }
            }
        }
        if let failure = reader.failure {
            report("error: cannot read \(name): \(failure)")
            return .failure
        }
        if case .failed(let failure) = interpreter.finish() { status = status.worst(failure) }
        return status
    }

    /// Shows a command as a transcript would: `memo> ` before it, `...> ` inside a heredoc.
    private func echoLine(_ line: String, continuing: Bool) {
        if continuing {
            output.write("...> \(line)\n")
        } else if case .some(let parsed) = try? CommandParser.parse(line: line), parsed == .nothing {
            return
        } else {
            output.write("memo> \(line)\n")
        }
    }

    private func report(_ message: String) {
        output.flush()
        errors.write(message + "\n")
        errors.flush()
    }
}
