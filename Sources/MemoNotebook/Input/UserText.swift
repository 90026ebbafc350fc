import Glibc
import MemoStore

/// The text of an `add` or `edit` typed without one, as a person gives it (docs/REFERENCE.md,
/// Text from an editor or standard input): all of standard input when that is not a terminal
/// (`git log -1 | memo add`), else what they save in `$VISUAL`, `$EDITOR` or `vi`, on a private
/// temporary file removed once the command has used it, and kept when it could not
/// (`MissingTextSource.withSaved`).
package struct UserText: MissingTextSource {
    private let environment: Environment
    private let readsStandardInput: Bool
    private let place: TemporaryTextPlace

    /// - Parameters:
    ///   - readsStandardInput: whether standard input carries the text: it is not a
    ///     terminal, and not where the commands come from.
    ///   - place: where its temporary files go (`Notebook.temporaryTextPlace`).
    package init(environment: Environment, readsStandardInput: Bool, place: TemporaryTextPlace) {
        self.environment = environment
        self.readsStandardInput = readsStandardInput
        self.place = place
    }

    /// The editor's command: `$VISUAL`, else `$EDITOR`, else `vi`. It may carry arguments
    /// (`code --wait`): the shell runs it, as git does.
    private var editorCommand: String {
        for name in ["VISUAL", "EDITOR"] {
            if let command = environment[name], !command.allSatisfy(\.isWhitespace) { return command }
        }
        return "vi"
    }

    package func save(startingFrom current: String, asOneText: Bool) throws -> SavedText {
        if readsStandardInput {
            // Piped bytes that are no text are refused as any other input is: they are not lost,
            // they are where they were piped from.
            let bytes = Array(try TextFile.read(descriptor: STDIN_FILENO, name: "standard input").utf8)
            return SavedText(bytes: bytes, isFromStandardInput: true) { [environment, place] in
                try PrivateTemporaryFile(holding: bytes, in: place, environment: environment, kind: "edited text")
                    .keep()
            }
        }
        return try edit(asOneText && !current.isEmpty ? current + "\n" : current)
    }

    /// What the user saved in the editor, started on `initial`: its file stays until the
    /// command has used it, and is what a failed command keeps.
    private func edit(_ initial: String) throws -> SavedText {
        let file = try PrivateTemporaryFile(
            holding: Array(initial.utf8), in: place, environment: environment, kind: "editor")
        let path = file.path
        let command = editorCommand
        let bytes: [UInt8]
        do {
            let status = try Self.run(command, on: path)
            guard status == 0 else {
                throw CommandError.invalid("the editor '\(command)' failed (exit status \(status)); nothing changed")
            }
            let descriptor = try TextFile.open(path)
            defer { close(descriptor) }
            bytes = try TextFile.bytes(descriptor: descriptor, name: path)
        } catch {
            file.remove()
            throw error
        }
        return SavedText(bytes: bytes, isFromStandardInput: false, keep: file.keep, discard: file.remove)
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
}
