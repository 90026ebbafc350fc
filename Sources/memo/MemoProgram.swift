import Glibc
import MemoModel
import MemoNotebook
import MemoREPL
import MemoServer

/// Chooses a face for the command line and runs it; returns the exit status.
struct MemoProgram {
    let errors: FileOutput
    let environment = Environment.process

    /// Runs the program; a failed write to standard output (other than a closed pipe) makes
    /// the run fail, so `memo list > /dev/full` does not pass for a success.
    func run(_ arguments: Result<[String], CommandError>) -> ExitStatus {
        let output = FileOutput(descriptor: STDOUT_FILENO)
        let status = run(arguments, output: output)
        output.flush()
        guard let failure = output.failure else { return status }
        errors.write("error: cannot write the output: \(failure)\n")
        errors.flush()
        return status.worst(.failure)
    }

    private func run(_ arguments: Result<[String], CommandError>, output: FileOutput) -> ExitStatus {
        let invocation: Invocation
        do {
            invocation = try Invocation(arguments: arguments.get())
        } catch {
            return report(error)
        }
        // A person may be asked an encrypted store's passphrase; scripts and the server take
        // it from $MEMO_PASSPHRASE_COMMAND only.
        switch invocation.action {
        case .run, .serve, .serveSync, .test, .complete:
            Passphrases.install(environment: environment, askingOnTerminal: false)
        default: Passphrases.install(environment: environment, askingOnTerminal: true)
        }
        switch invocation.action {
        case .help(let command):
            if let mode = ProgramHelp.modes.first(where: { $0.kind.programCommand == command }) {
                output.write(ProgramHelp.text(for: mode))
            } else {
                output.write(ProgramHelp.text + "\n" + HelpText.text(for: nil))
            }
            return .success
        case .version:
            output.write("memo \(memoVersion)\n")
            return .success
        case .completionScript(let shell):
            output.write(CompletionScripts.script(for: shell))
            return .success
        case .complete(let line):
            output.write(ShellCompletion(environment: environment).answer(for: line))
            return .success
        case .manual:
            output.write(ManualPage.text)
            return .success
        case .serve:
            return withNotebook(invocation, scripting: false) { notebook in
                output.flush()
                return ExitStatus(rawValue: ServerLoop.run(notebook: notebook)) ?? .failure
            }
        case .encrypt(let changingPassphrase):
            return withStoreFile(invocation, output) { path throws(StoreError) in
                try StoreEncryption.encrypt(fileAt: path, changingPassphrase: changingPassphrase)
            }
        case .decrypt:
            return withStoreFile(invocation, output) { path throws(StoreError) in
                try StoreEncryption.decrypt(fileAt: path)
            }
        case .serveSync(let path):
            return SyncServing.run(storeFile: UserPath.expand(path, environment: environment), displayPath: path)
                ? .success : .failure
        case .test(let files, let update):
            return TranscriptTester(output: output, errors: errors, update: update).test(files)
        case .run(let files, let echo, let keepGoing):
            return withNotebook(invocation, scripting: true) { notebook in
                ScriptRunner(
                    notebook: notebook, renderer: renderer(for: invocation, scripting: true),
                    output: output, errors: errors, echo: echo, keepGoing: keepGoing
                ).run(files)
            }
        case .command(let words):
            let command: Command
            do {
                command = try CommandParser.parse(arguments: words)
            } catch {
                return report(error)
            }
            return withScreen(invocation, output) { screen in
                if let outcome = command.outcomeWithoutStore {
                    do {
                        try renderer(for: invocation, scripting: false).render(outcome, to: screen)
                        return .success
                    } catch {
                        return report(error)
                    }
                }
                return withNotebook(invocation, scripting: false, sessionScope: .oneShot) { notebook in
                    notebook.missingTextSource = UserText(
                        environment: environment,
                        readsStandardInput: !Terminal.isTerminal(STDIN_FILENO), place: notebook.temporaryTextPlace)
                    notebook.picker = FzfPicker(place: notebook.temporaryTextPlace)
                    if Terminal.isTerminal(STDIN_FILENO), Terminal.isTerminal(STDERR_FILENO) {
                        notebook.confirmation = { [errors] question in
                            errors.write(question)
                            errors.flush()
                            return readLine().map(REPL.isYes) ?? false
                        }
                    }
                    // Ctrl-C rolls an import back and says so (`runOneShot`); other commands
                    // die of it at once, as they have nothing to undo.
                    if case .importFile = command { InterruptSignal.install() }
                    return runOneShot(
                        command, notebook: notebook, renderer: renderer(for: invocation, scripting: false),
                        output: screen)
                }
            }
        case .session:
            return withNotebook(invocation, scripting: false) { notebook in
                if Terminal.isTerminal(STDIN_FILENO) && Terminal.isTerminal(STDOUT_FILENO) {
                    notebook.missingTextSource = UserText(
                        environment: environment, readsStandardInput: false, place: notebook.temporaryTextPlace)
                    notebook.picker = FzfPicker(place: notebook.temporaryTextPlace)
                    let repl = REPL(
                        notebook: notebook, makeRenderer: { renderer(for: invocation, scripting: false) },
                        output: output, errors: errors, environment: environment)
                    if let status = repl.run() { return status }
                }
                // Piped input: the REPL's commands, without prompt or line editor; errors name their line.
                return ScriptRunner(
                    notebook: notebook, renderer: renderer(for: invocation, scripting: false),
                    output: output, errors: errors, keepGoing: true
                ).run(["-"])
            }
        }
    }

    /// Runs `body` on the chosen store file's path (`encrypt`, `decrypt`) and prints the line it returns.
    private func withStoreFile(
        _ invocation: Invocation, _ output: FileOutput, _ body: (String) throws(StoreError) -> String
    ) -> ExitStatus {
        do {
            guard case .file(let path) = try storeLocation(invocation).location else { return .usage }
            output.write(try body(path) + "\n")
            return .success
        } catch {
            return report(error)
        }
    }

    /// The store the command line chose, and whether someone chose it (not the default).
    private func storeLocation(_ invocation: Invocation) throws(StoreError) -> (location: StoreLocation, isChosen: Bool)
    {
        switch invocation.store {
        case .memory: return (.memory, true)
        case .path(let path): return (.file(path: UserPath.expand(path, environment: environment)), true)
        case .defaultPath:
            guard let storePath = StorePath.defaultPath(environment: environment) else {
                throw .cannotOpen(path: "(default)", reason: "HOME is not set; use --store PATH")
            }
            return (.file(path: storePath.path), storePath.isChosen)
        }
    }

    /// Opens the chosen store, loads the fixtures, and runs `body` on the notebook: on the
    /// system clock for people; for scripts, on the deterministic clock with deterministic
    /// uuids in memory, and on the system clock with random uuids on a store file.
    private func withNotebook(
        _ invocation: Invocation, scripting: Bool, sessionScope: SessionScope = .session,
        _ body: (Notebook) -> ExitStatus
    ) -> ExitStatus {
        do {
            let (location, isChosen) = try storeLocation(invocation)
            // Deterministic uuids and dates only where nothing outlives the run: a memo written
            // to a store file gets a uuid no other store can hold, or syncs would merge
            // unrelated memos, and the date it was written (`StoreScriptClock`).
            let uuids: any UUIDSource = location.isMemory ? SequentialUUIDs() : RandomUUIDs()
            let clock: any MemoClock = location.isMemory ? DeterministicClock() : StoreScriptClock()
            let notebook =
                scripting
                ? try Notebook(
                    location: location, isChosen: isChosen, clock: clock, uuids: uuids, displayTime: .utc,
                    scope: sessionScope)
                : try Notebook(
                    location: location, isChosen: isChosen, clock: SystemClock(), uuids: RandomUUIDs(),
                    displayTime: .system,
                    scope: sessionScope)
            notebook.notices = { [errors] notice in
                errors.write(notice + "\n")
                errors.flush()
            }
            if notebook.isStoreSealed {
                // Temporary files an encrypted store's earlier sessions left when they were killed.
                PrivateScratchFolder.sweep(environment: environment)
                // less would keep what is searched for in the pager in ~/.lesshst.
                setenv("LESSHISTFILE", "-", 1)
            }
            if !scripting, Terminal.isTerminal(STDERR_FILENO) { notebook.progress = ProgressBar(output: errors) }
            // Scripts run the same on every machine: no templates folder of this one.
            if !scripting { notebook.templates = TemplateFolder(environment: environment) }
            for reference in invocation.fixtures {
                _ = try notebook.execute(.preload(try Fixture.resolve(reference)))
            }
            return body(notebook)
        } catch {
            return report(error)
        }
    }

    /// Text for people sized to their terminal; for scripts, always 80 columns, UTC, no colour,
    /// so a script's output is the same on every machine. An empty `NO_COLOR` leaves colour
    /// on, as no-color.org asks.
    private func renderer(for invocation: Invocation, scripting: Bool) -> OutcomeRenderer {
        if invocation.json { return JSONRenderer() }
        if scripting { return TextRenderer(style: TextStyle(width: 80, color: false, displayTime: .utc)) }
        let color =
            invocation.color && Terminal.isTerminal(STDOUT_FILENO) && (environment["NO_COLOR"] ?? "").isEmpty
            && environment["TERM"] != "dumb"
        return TextRenderer(
            style: TextStyle(
                width: Terminal.outputWidth(), color: color,
                displayTime: .system))
    }

    /// Runs `body` on the one-shot output: through the pager when it is a terminal and
    /// paging is on (docs/REFERENCE.md, Paging), else standard output itself.
    private func withScreen(
        _ invocation: Invocation, _ output: FileOutput, _ body: (OutputSink) -> ExitStatus
    ) -> ExitStatus {
        guard invocation.pager, Terminal.isTerminal(STDOUT_FILENO),
            let command = PagedOutput.command(environment: environment),
            let size = Terminal.size(STDOUT_FILENO)
        else { return body(output) }
        let paged = PagedOutput(
            screen: output, errors: errors, command: command, searchPath: environment["PATH"],
            rows: size.rows, columns: size.columns)
        let status = body(paged)
        guard let failure = paged.finish() else { return status }
        errors.write("error: \(failure)\n")
        errors.flush()
        return status.worst(.failure)
    }

    private func runOneShot(
        _ command: Command, notebook: Notebook, renderer: OutcomeRenderer,
        output: OutputSink
    ) -> ExitStatus {
        do {
            let outcome = try notebook.execute(command)
            try renderer.render(outcome, to: output)
            // As grep: a search that found nothing fails, so `memo search x && …` reads.
            if case .memos(let cursor, _, _?) = outcome, cursor.rowsGiven == 0 { return .failure }
            if case .memoIDs(let cursor, isSearch: true) = outcome, cursor.rowsGiven == 0 { return .failure }
            // As fzf: nothing picked (Esc, Ctrl-C) fails, quietly.
            if case .nothingPicked = outcome { return .failure }
            return .success
        } catch {
            output.flush()
            if case .importFile = command, error as? StoreError == .interrupted {
                errors.write("interrupted: nothing imported\n")
                errors.flush()
                InterruptSignal.endProcess()
            }
            return report(error)
        }
    }

    /// Writes `error: MESSAGE` and returns the status the error calls for on the command line.
    private func report(_ error: any Error) -> ExitStatus {
        errors.write(errorReport(error) + "\n")
        errors.flush()
        return ExitStatus.of(error, commandLine: true)
    }
}
