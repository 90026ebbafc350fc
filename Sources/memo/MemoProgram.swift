import Foundation
import MemoNotebook
import MemoStore

/// Chooses a face for the command line and runs it; returns the exit status.
struct MemoProgram {
    let errors: FileOutput
    let environment = ProcessInfo.processInfo.environment

    func run(_ arguments: Result<[String], CommandError>) -> ExitStatus {
        let invocation: Invocation
        do {
            invocation = try Invocation(arguments: arguments.get())
        } catch {
            return report(error, commandLine: true)
        }
        let output = FileOutput(descriptor: STDOUT_FILENO)
        defer { output.flush() }
        switch invocation.action {
        case .help:
            output.write(Invocation.usage + "\n" + HelpText.text(for: nil))
            return .success
        case .version:
            output.write("memo \(memoVersion)\n")
            return .success
        case .command(let words):
            let command: Command
            do {
                command = try CommandParser.parse(arguments: words)
            } catch {
                return report(error, commandLine: true)
            }
            return withNotebook(invocation) { notebook in
                runOneShot(command, notebook: notebook, renderer: renderer(for: invocation), output: output)
            }
        case .session:
            return withNotebook(invocation) { notebook in
                runSession(notebook: notebook, renderer: renderer(for: invocation), output: output)
            }
        }
    }

    /// Opens the chosen store and runs `body` on a notebook with the system clock.
    private func withNotebook(_ invocation: Invocation, _ body: (Notebook) -> ExitStatus) -> ExitStatus {
        let location: StoreLocation
        switch invocation.store {
        case .memory: location = .memory
        case .path(let path): location = .file(path: path)
        case .defaultPath:
            guard let path = StorePath.defaultPath(environment: environment) else {
                return report(StoreError.cannotOpen(path: "(default)", reason: "HOME is not set; use --store PATH"),
                              commandLine: true)
            }
            location = .file(path: path)
        }
        do {
            let store = try MemoStore.open(location)
            let notebook = Notebook(store: store, clock: SystemClock(), uuids: RandomUUIDs(),
                                    displayTime: DisplayTime(timeZone: .current))
            return body(notebook)
        } catch {
            return report(error, commandLine: true)
        }
    }

    private func renderer(for invocation: Invocation) -> OutcomeRenderer {
        if invocation.json { return JSONRenderer() }
        let color = invocation.color && Terminal.isTerminal(STDOUT_FILENO) && environment["NO_COLOR"] == nil
        return TextRenderer(style: TextStyle(width: Terminal.outputWidth(), color: color,
                                             displayTime: DisplayTime(timeZone: .current)))
    }

    private func runOneShot(_ command: Command, notebook: Notebook, renderer: OutcomeRenderer,
                            output: FileOutput) -> ExitStatus {
        do {
            try renderer.render(try notebook.execute(command), to: output)
            return .success
        } catch {
            output.flush()
            return report(error, commandLine: true)
        }
    }

    /// Reads commands from standard input until it ends or `quit`: a plain prompt on a
    /// terminal, none on a pipe. Errors are reported and the session goes on; the exit
    /// status is the worst a command ended with.
    private func runSession(notebook: Notebook, renderer: OutcomeRenderer, output: FileOutput) -> ExitStatus {
        let interactive = Terminal.isTerminal(STDIN_FILENO)
        let interpreter = LineInterpreter(notebook: notebook, renderer: renderer, output: output) { message, _ in
            output.flush()
            errors.write("error: \(message)\n")
            errors.flush()
        }
        let prompt = notebook.store.location.isMemory ? "memo(memory)> " : "memo> "
        let reader = LineReader(descriptor: STDIN_FILENO)
        var status = ExitStatus.success
        var lineNumber = 0
        while true {
            if interactive {
                output.write(interpreter.isContinuing ? "...> " : prompt)
                output.flush()
            }
            guard let line = reader.next() else { break }
            lineNumber += 1
            let result: LineInterpreter.Status
            switch line {
            case .text(let text): result = interpreter.feed(text, lineNumber: lineNumber)
            case .invalidUTF8: result = interpreter.reject("line \(lineNumber) is not valid UTF-8", lineNumber: lineNumber)
            case .tooLong: result = interpreter.reject("line \(lineNumber) is longer than \(LineReader.maximumLineBytes) bytes", lineNumber: lineNumber)
            }
            output.flush()
            if case .failed(let failure) = result { status = status.worst(failure) }
            if result == .quit { break }
        }
        if case .failed(let failure) = interpreter.finish() { status = status.worst(failure) }
        return interactive ? .success : status
    }

    /// Writes `error: MESSAGE` and returns the status the error calls for.
    private func report(_ error: any Error, commandLine: Bool) -> ExitStatus {
        errors.write("error: \(errorMessage(error))\n")
        return ExitStatus.of(error, commandLine: commandLine)
    }
}
