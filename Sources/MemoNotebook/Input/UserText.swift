import Glibc
import MemoStore

/// The text of an `add` or `edit` typed without one, as a person gives it (docs/REFERENCE.md,
/// Text from an editor or standard input): all of standard input when that is not a terminal
/// (`git log -1 | memo add`), else what they save in `$VISUAL`, `$EDITOR` or `vi`, on a private
/// temporary file removed afterwards. One trailing line break is dropped, as editors and `echo` add
/// one.
package struct UserText: MissingTextSource {
    private let environment: Environment
    private let readsStandardInput: Bool

    /// - Parameter readsStandardInput: whether standard input carries the text: it is not a
    ///   terminal, and not where the commands come from.
    package init(environment: Environment, readsStandardInput: Bool) {
        self.environment = environment
        self.readsStandardInput = readsStandardInput
    }

    package func text(current: String) throws -> String {
        Self.droppingOneLineBreak(try buffer(current: current))
    }

    /// The editor's command: `$VISUAL`, else `$EDITOR`, else `vi`. It may carry arguments
    /// (`code --wait`): the shell runs it, as git does.
    private var editorCommand: String {
        for name in ["VISUAL", "EDITOR"] {
            if let command = environment[name], !command.allSatisfy(\.isWhitespace) { return command }
        }
        return "vi"
    }

    package func buffer(current: String) throws -> String {
        readsStandardInput ? try TextFile.read(descriptor: STDIN_FILENO, name: "standard input") : try edit(current)
    }

    package func keep(_ text: String) throws -> String {
        try PrivateTemporaryFile.create(holding: text, environment: environment, kind: "edited text")
    }

    /// What the user saved in the editor, started on `current`.
    private func edit(_ current: String) throws -> String {
        let initial = current.isEmpty || current.hasSuffix("\n") ? current : current + "\n"
        let path = try PrivateTemporaryFile.create(holding: initial, environment: environment, kind: "editor")
        defer { unlink(path) }
        let command = editorCommand
        let status = try Self.run(command, on: path)
        guard status == 0 else {
            throw CommandError.invalid("the editor '\(command)' failed (exit status \(status)); nothing changed")
        }
        return try TextFile.read(path)
    }

    /// Runs `command FILE` on this terminal and waits for it; its exit status.
    /// memo ignores Ctrl-C meanwhile: it belongs to the editor.
    private static func run(_ command: String, on path: String) throws -> Int32 {
        let editor: ShellCommand
        switch ShellCommand.start(command, arguments: [path]) {
        case .success(let started): editor = started
        case .failure(let error): throw CommandError.invalid("cannot start the editor '\(command)': \(error)")
        }
        let interrupt = signal(SIGINT, SIG_IGN), quit = signal(SIGQUIT, SIG_IGN)
        defer {
            signal(SIGINT, interrupt)
            signal(SIGQUIT, quit)
        }
        return editor.wait()
    }

    private static func droppingOneLineBreak(_ text: String) -> String {
        if text.hasSuffix("\r\n") || text.hasSuffix("\n") { return String(text.dropLast()) }
        return text
    }
}
