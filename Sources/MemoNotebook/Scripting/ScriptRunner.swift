import Glibc

/// Replays command files against one notebook, each line as it arrives: `memo run`, and
/// commands piped to `memo`. Errors read `FILE:LINE: error: MESSAGE` (`<stdin>` for standard
/// input), as sqlite3 and compilers name the line of piped input.
///
/// The first error stops the run unless `keepGoing`; either way the run then ends with
/// status 1 (3 if the store failed).
package final class ScriptRunner {
    private let notebook: Notebook
    private let renderer: OutcomeRenderer
    private let output: OutputSink
    private let errors: OutputSink
    private let echo: Bool
    private let keepGoing: Bool

    package init(
        notebook: Notebook, renderer: OutcomeRenderer, output: OutputSink, errors: OutputSink,
        echo: Bool = false, keepGoing: Bool
    ) {
        self.notebook = notebook
        self.renderer = renderer
        self.output = output
        self.errors = errors
        self.echo = echo
        self.keepGoing = keepGoing
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

    /// Runs one file; a batch it leaves open is rolled back, and that is an error, named after
    /// what ended the file: its end, or the line of its `quit`.
    private func runClosingBatch(_ path: String) -> ExitStatus {
        let (status, quitLine) = run(path)
        guard let discarded = notebook.discardOpenBatch() else { return status }
        let name = path == "-" ? "<stdin>" : path
        let changes = "its \(discarded) unsaved change\(discarded == 1 ? " was" : "s were") rolled back"
        if let quitLine {
            report("\(name):\(quitLine): error: quit inside a batch: \(changes)")
        } else {
            report("\(name): error: the input ended inside a batch: \(changes)")
        }
        return status.worst(.failure)
    }

    /// Runs one file: its status, and the line of the `quit` that ended it, if one did.
    private func run(_ path: String) -> (status: ExitStatus, quitLine: Int?) {
        let name = path == "-" ? "<stdin>" : path
        let descriptor: Int32
        do {
            descriptor = path == "-" ? STDIN_FILENO : try TextFile.open(path)
        } catch {
            report("error: \(error.message)")
            return (.failure, nil)
        }
        defer { if descriptor != STDIN_FILENO { close(descriptor) } }

        // With --echo, standard output is a transcript: output lines that would read as prompts
        // are escaped, and errors appear where the REPL would show them, too.
        let commandOutput: OutputSink = echo ? TranscriptOutput(output) : output
        let interpreter = LineInterpreter(notebook: notebook, renderer: renderer, output: commandOutput) {
            [self] error, line in
            if echo { output.write(errorReport(error) + "\n") }
            report(errorReport(error, file: name, line: line))
        }
        let reader = LineReader(descriptor: descriptor)
        var status = ExitStatus.success
        var lineNumber = 0
        while let line = reader.next() {
            lineNumber += 1
            if echo, case .text(let text) = line { echoLine(text, continuing: interpreter.isContinuing) }
            let result = interpreter.feed(line, lineNumber: lineNumber)
            commandOutput.flush()
            if result == .quit { return (status, lineNumber) }
            if case .failed(let failure) = result {
                status = status.worst(failure)
                if !keepGoing { return (status, nil) }
            }
        }
        if let failure = reader.failure {
            report("error: cannot read \(name): \(failure)")
            return (.failure, nil)
        }
        if case .failed(let failure) = interpreter.finish() { status = status.worst(failure) }
        return (status, nil)
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
