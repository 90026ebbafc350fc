/// Runs the command language one line at a time, as typed in the REPL, piped in, or read
/// from a script: it gathers heredocs across lines, runs each command on the notebook,
/// renders its outcome and reports errors without stopping.
package final class LineInterpreter {
    package enum Status: Equatable {
        /// Ready for the next command.
        case ready
        /// Inside a heredoc: the next lines are text.
        case continuing
        /// The command failed with this status; the session goes on.
        case failed(ExitStatus)
        /// `quit` was given.
        case quit
    }

    private let notebook: Notebook
    /// How outcomes are written; the REPL replaces it when the terminal's width changes.
    package var renderer: OutcomeRenderer
    private let output: OutputSink
    private let reportError: (any Error, Int) -> Void
    private var heredoc: (command: String, opener: HeredocOpener, body: [String], lineNumber: Int)?

    /// - Parameter reportError: shows the error of the command that began at a line.
    package init(
        notebook: Notebook, renderer: OutcomeRenderer, output: OutputSink,
        reportError: @escaping (_ error: any Error, _ lineNumber: Int) -> Void
    ) {
        self.notebook = notebook
        self.renderer = renderer
        self.output = output
        self.reportError = reportError
    }

    /// True while a heredoc is being collected.
    package var isContinuing: Bool { heredoc != nil }

    /// Takes one line of input.
    package func feed(_ line: String, lineNumber: Int) -> Status {
        // A scripted run's uuids depend on the lines before them: two scripts never share one.
        notebook.uuids.absorb(line)
        if var pending = heredoc {
            guard !pending.opener.isClosed(by: line) else {
                heredoc = nil
                return run(
                    pending.command, heredoc: pending.body.joined(separator: "\n"), lineNumber: pending.lineNumber)
            }
            pending.body.append(line)
            heredoc = pending
            return .continuing
        }
        return run(line, heredoc: nil, lineNumber: lineNumber)
    }

    /// The commands `lines` hold, parsed without running them (a heredoc and its body are
    /// one; nil for a line that does not parse).
    package static func commands(in lines: [String]) -> [Command?] {
        var commands: [Command?] = [], opener: (HeredocOpener, String, [String])?
        for line in lines {
            if let (open, first, body) = opener {
                if open.isClosed(by: line) {
                    opener = nil
                    let parsed = try? CommandParser.parse(line: first, heredoc: body.joined(separator: "\n"))
                    if case .command(let command)? = parsed { commands.append(command) } else { commands.append(nil) }
                } else {
                    opener = (open, first, body + [line])
                }
                continue
            }
            switch try? CommandParser.parse(line: line, heredoc: nil) {
            case .nothing?: continue
            case .needsHeredoc(let open)?: opener = (open, line, [])
            case .command(let command)?: commands.append(command)
            case nil: commands.append(nil)
            }
        }
        if opener != nil { commands.append(nil) }
        return commands
    }

    /// Drops a heredoc being collected (Ctrl-C in the REPL): it adds nothing.
    package func abandon() {
        heredoc = nil
    }

    /// Ends the input: an unfinished heredoc is an error and adds nothing.
    package func finish() -> Status {
        guard let pending = heredoc else { return .ready }
        heredoc = nil
        return fail(
            CommandError.usage("text ended before the heredoc's closing '\(pending.opener.delimiter)'"),
            lineNumber: pending.lineNumber)
    }

    /// Takes one line as a `LineReader` read it: a line that could not be read (invalid
    /// UTF-8, too long) is reported as an error and adds nothing.
    package func feed(_ line: LineReader.Line, lineNumber: Int) -> Status {
        do {
            return feed(try line.text(), lineNumber: lineNumber)
        } catch {
            return fail(error, lineNumber: lineNumber)
        }
    }

    private func run(_ line: String, heredoc body: String?, lineNumber: Int) -> Status {
        do {
            switch try CommandParser.parse(line: line, heredoc: body) {
            case .nothing:
                return .ready
            case .needsHeredoc(let opener):
                heredoc = (line, opener, [], lineNumber)
                return .continuing
            case .command(let command):
                let outcome = try notebook.execute(command)
                try renderer.render(outcome, to: output)
                if case .quit = outcome { return .quit }
                return .ready
            }
        } catch {
            return fail(error, lineNumber: lineNumber)
        }
    }

    private func fail(_ error: any Error, lineNumber: Int) -> Status {
        reportError(error, lineNumber)
        return .failed(ExitStatus.of(error, commandLine: false))
    }
}
