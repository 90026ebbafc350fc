import Glibc
import MemoModel
import MemoNotebook

/// One-shot output on a terminal (docs/REFERENCE.md, Paging): held back until it proves longer than
/// the screen, then sent through the pager, so a short answer never flashes a pager open.
final class PagedOutput: OutputSink {
    private let screen: FileOutput
    private let errors: FileOutput
    private let command: String
    private let searchPath: String?
    private let rows: Int
    private let columns: Int
    private var held = ""
    private var heldRows = 0
    private var state = State.holding

    private enum State {
        /// Not yet a screenful: held back.
        case holding
        /// Going through the pager's standard input.
        case paging(pager: ShellCommand, input: FileOutput, descriptor: Int32)
        /// Straight to the screen: the pager could not start.
        case direct
    }

    /// - Parameters:
    ///   - command: the pager, run by the shell.
    ///   - rows, columns: the terminal's size.
    ///   - errors: where a pager that cannot start is reported.
    ///   - searchPath: `$PATH`, where the pager's program is looked for.
    init(screen: FileOutput, errors: FileOutput, command: String, searchPath: String?, rows: Int, columns: Int) {
        self.screen = screen
        self.errors = errors
        self.searchPath = searchPath
        self.command = command
        self.rows = max(rows, 2)
        self.columns = max(columns, 1)
    }

    /// The pager to use: `$MEMO_PAGER`, else `$PAGER`, else `less -FRX` when it is installed;
    /// nil for none (`cat` or an empty value turns paging off).
    static func command(environment: Environment) -> String? {
        let chosen =
            environment["MEMO_PAGER"] ?? environment["PAGER"] ?? (isInstalled("less", environment) ? "less -FRX" : nil)
        guard let chosen else { return nil }
        let trimmed = chosen.trimmingSpaces()
        return trimmed.isEmpty || trimmed == "cat" ? nil : trimmed
    }

    var isBroken: Bool {
        if case .paging(_, let input, _) = state { return input.isBroken }
        return screen.isBroken
    }

    func write(_ text: String) {
        switch state {
        case .paging(_, let input, _): return input.write(text)
        case .direct: return screen.write(text)
        case .holding: break
        }
        held += text
        heldRows += text.split(separator: "\n", omittingEmptySubsequences: false).dropLast().reduce(0) { rows, line in
            rows + max(1, (DisplayWidth.of(String(line)) + columns - 1) / columns)
        }
        if heldRows >= rows - 1 { startPager() }
    }

    func flush() {
        switch state {
        case .paging(_, let input, _): input.flush()
        case .direct: screen.flush()
        case .holding: break
        }
    }

    /// Writes out what fitted on the screen, or waits for the user to leave the pager;
    /// returns why the pager failed, or nil. A pager the user quit early (it ended of a
    /// closed pipe, SIGPIPE) did not fail.
    func finish() -> String? {
        guard case .paging(let pager, let input, let descriptor) = state else {
            fallBackToScreen()
            screen.flush()
            return nil
        }
        input.flush()
        close(descriptor)
        state = .direct
        switch pager.waitForEnding() {
        case .exited(0), .exited(128 + SIGPIPE), .killed(signal: SIGPIPE): return nil
        case .exited(let status): return "the pager '\(command)' failed (exit status \(status))"
        case .killed(let signal): return "the pager '\(command)' failed (killed by signal \(signal))"
        }
    }

    /// Starts the pager on a pipe and hands it what was held; if it cannot start, the output
    /// goes to the screen as it would without a pager.
    private func startPager() {
        if let program = Self.missingProgram(of: command, PATH: searchPath) {
            errors.write("memo: cannot start the pager '\(program)' (not found): writing the output directly\n")
            errors.flush()
            return fallBackToScreen()
        }
        var ends: [Int32] = [0, 0]
        guard pipe(&ends) == 0 else { return fallBackToScreen() }
        screen.flush()
        let started = ShellCommand.start(command, standardInput: ends[0], closing: [ends[1]])
        close(ends[0])
        guard case .success(let pager) = started else {
            close(ends[1])
            return fallBackToScreen()
        }
        // Leaving the pager early closes the pipe: writes then fail and the listing stops.
        signal(SIGPIPE, SIG_IGN)
        let input = FileOutput(descriptor: ends[1])
        input.write(held)
        held = ""
        state = .paging(pager: pager, input: input, descriptor: ends[1])
    }

    private func fallBackToScreen() {
        screen.write(held)
        held = ""
        state = .direct
    }

    private static func isInstalled(_ program: String, _ environment: Environment) -> Bool {
        isInstalled(program, PATH: environment["PATH"])
    }

    private static func isInstalled(_ program: String, PATH: String?) -> Bool {
        if program.contains("/") { return access(program, X_OK) == 0 }
        return (PATH ?? "/usr/bin:/bin").split(separator: ":").contains { folder in
            access("\(folder)/\(program)", X_OK) == 0
        }
    }

    /// The program a pager command starts with when it is not installed, or nil. Only a
    /// plain first word is checked: the shell runs anything else (`LESS=R less`, `f() …`),
    /// and a failure of it is the pager's failure (`finish`).
    static func missingProgram(of command: String, PATH: String?) -> String? {
        let program = String(command.prefix { !$0.isWhitespace })
        let plain = program.unicodeScalars.allSatisfy {
            $0.properties.isAlphabetic || $0.properties.numericType != nil || "/._+-".unicodeScalars.contains($0)
        }
        guard plain, !program.isEmpty, !isInstalled(program, PATH: PATH) else { return nil }
        return program
    }
}
