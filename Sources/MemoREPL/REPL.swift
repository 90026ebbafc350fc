import MemoModel
import MemoNotebook

/// The interactive face: reads commands with libedit, runs them on the notebook, and
/// never ends on an error. Ctrl-C abandons the line being typed, or cancels the running
/// command; Ctrl-D on an empty line quits.
package final class REPL {
    private let notebook: Notebook
    private let makeRenderer: () -> OutcomeRenderer
    private let output: FileOutput
    private let errors: FileOutput
    private let environment: Environment

    /// - Parameter makeRenderer: called before each command, so output fits the terminal's
    ///   width even after it was resized.
    package init(
        notebook: Notebook, makeRenderer: @escaping () -> OutcomeRenderer,
        output: FileOutput, errors: FileOutput, environment: Environment
    ) {
        self.notebook = notebook
        self.makeRenderer = makeRenderer
        self.output = output
        self.errors = errors
        self.environment = environment
    }

    /// Runs until Ctrl-D or `quit`; nil when no line editor could be set up on this terminal.
    package func run() -> ExitStatus? {
        let interpreter = LineInterpreter(notebook: notebook, renderer: makeRenderer(), output: output) {
            [errors, output] error, _ in
            output.flush()
            errors.write(errorReport(error) + "\n")
            errors.flush()
        }
        let completer = Completer(data: notebook)
        // An encrypted store's commands hold its text: they stay in this session's memory.
        let historyFile = notebook.isStoreSealed ? nil : HistoryFile.prepare(environment: environment)
        guard let editor = LineEditor(historyFile: historyFile, complete: completer.complete) else { return nil }
        if notebook.isStoreSealed {
            errors.write(HistoryFile.notSavedNotice + "\n")
            errors.flush()
        }
        InterruptSignal.install()
        notebook.confirmation = { question in
            if case .line(let answer) = editor.readLine(prompt: question) { return Self.isYes(answer) }
            return false
        }

        while true {
            switch editor.readLine(prompt: interpreter.isContinuing ? Transcript.continuationPrompt : prompt) {
            case .line(let line):
                if !interpreter.isContinuing { editor.remember(line) }
                Interruption.clear()
                interpreter.renderer = makeRenderer()
                let status = interpreter.feed(line, lineNumber: 1)
                output.flush()
                if status == .quit, mayQuit(editor) { return .success }
            case .interrupted:
                interpreter.abandon()
                output.write("\n")
                output.flush()
            case .endOfInput:
                output.write("\n")
                output.flush()
                // A heredoc being typed is dropped, and the REPL says so, as piped input does.
                _ = interpreter.finish()
                if mayQuit(editor) { return .success }
            }
        }
    }

    /// Whether an answer to a [y/N] question is yes.
    package static func isYes(_ answer: String) -> Bool {
        ["y", "yes"].contains(answer.trimmingSpaces().lowercased())
    }

    /// Whether to leave: yes when no batch is open, else the user is asked whether to
    /// discard its unsaved changes. Ctrl-D and Ctrl-C answer the default, no; only a
    /// terminal that went away counts as yes (nobody is there to answer).
    private func mayQuit(_ editor: LineEditor) -> Bool {
        guard notebook.hasOpenBatch else { return true }
        let count = notebook.unsavedChanges
        let question =
            "the batch has \(count) unsaved change\(count == 1 ? "" : "s"): quit and discard \(count == 1 ? "it" : "them")? [y/N] "
        switch editor.readLine(prompt: question) {
        case .line(let answer) where Self.isYes(answer):
            break
        case .line:
            return false
        case .endOfInput where !editor.isTerminalGone, .interrupted:
            output.write("\n")
            output.flush()
            return false
        case .endOfInput:
            break
        }
        _ = try? notebook.execute(.rollback)
        return true
    }

    /// `memo> ` on disk, `memo(memory)> ` in memory, with `*` before `>` while a batch
    /// has unsaved changes.
    private var prompt: String {
        (notebook.storeLocation.isMemory ? "memo(memory)" : "memo") + (notebook.hasOpenBatch ? "*" : "") + "> "
    }
}
