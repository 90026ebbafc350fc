import FoundationEssentials
import MemoModel
import MemoNotebook

/// `memo __complete LINE`: what the completion scripts offer on Tab. LINE is the command
/// line up to the cursor, program name first. The program's options, and each mode's, come
/// from `ProgramHelp`, its commands from the `CommandSyntax` table; a command of the language
/// is completed by the REPL's `Completer`, with the tags, ids and fixture names of the store
/// the line names (never created for a Tab).
struct ShellCompletion {
    let environment: Environment

    /// One line per candidate: `WORD`, or `WORD<TAB>HINT` (a memo's first line), in the
    /// order to show them (ids by number, the rest by text), which the scripts keep.
    func answer(for line: String) -> String {
        candidates(for: line).sorted { ($0.sortKey ?? $0.text) < ($1.sortKey ?? $1.text) }.map { completion in
            completion.text + (completion.hint.map { "\t" + TerminalText.row($0) } ?? "") + "\n"
        }.joined()
    }

    func candidates(for line: String) -> [Completion] {
        var words = line.split(whereSeparator: \.isWhitespace).map(String.init)
        let startsNewWord = line.last?.isWhitespace ?? true
        let current = startsNewWord ? "" : words.removeLast()
        var position = 1, storePath: String?, inMemory = false
        while position < words.count, words[position].hasPrefix("-") {
            let word = words[position]
            if word == "--store" || word == "--fixture" {
                if word == "--store", position + 1 < words.count { storePath = words[position + 1] }
                if word == "--fixture" { inMemory = storePath == nil }
                position += 2
                continue
            }
            if word.hasPrefix("--store=") { storePath = String(word.dropFirst("--store=".count)) }
            if word == "--in-memory" { inMemory = true }
            position += 1
        }
        guard position < words.count else {
            return matching(current, programLevel(after: words.last ?? "", current: current))
        }
        let programCommand = CommandSyntax.programCommand(named: words[position])
        if current.hasPrefix("-"),
            let mode = ProgramHelp.modes.first(where: { $0.kind.programCommand == programCommand })
        {
            return matching(current, ProgramHelp.options(for: mode).flatMap(\.names).map { Completion($0) })
        }
        switch programCommand {
        case .completions:
            return position + 1 == words.count ? matching(current, Shell.allCases.map { Completion($0.rawValue) }) : []
        case .run, .test, .serve, .encrypt, .decrypt:
            return [] // files, or nothing: the shell offers files
        case nil, .complete, .manual:
            // A command of the language; the two hidden ones are completed as any unknown word.
            let rest = words[position...].joined(separator: " ") + " " + current
            let notebook = inMemory ? nil : openStore(storePath)
            return (notebook.map { Completer(data: $0) } ?? .withoutStore).complete(rest).items
        }
    }

    /// Before the command: the program's options, a fixture after `--fixture`, nothing
    /// after `--store` (the shell offers files), else the commands.
    private func programLevel(after previous: String, current: String) -> [Completion] {
        if previous == "--store" { return [] }
        if previous == "--fixture" { return Fixture.builtIn.map { Completion($0.name, hint: $0.description) } }
        if current.hasPrefix("-") { return ProgramHelp.options.flatMap(\.names).map { Completion($0) } }
        let language = Completer.withoutStore.complete("").items
        return CommandSyntax.offeredProgramCommands.map { Completion($0.rawValue) } + language
    }

    private func matching(_ word: String, _ completions: [Completion]) -> [Completion] {
        completions.filter { $0.text.hasPrefix(word) }
    }

    /// The store the line names, else the default one, when it exists.
    private func openStore(_ path: String?) -> Notebook? {
        guard
            let path = path.map({ UserPath.expand($0, environment: environment) })
                ?? StorePath.defaultPath(environment: environment)?.path,
            FileManager.default.fileExists(atPath: path)
        else { return nil }
        let notebook = try? Notebook(
            location: .file(path: path), clock: SystemClock(), uuids: RandomUUIDs(), displayTime: .system)
        notebook?.templates = TemplateFolder(environment: environment)
        return notebook
    }
}
