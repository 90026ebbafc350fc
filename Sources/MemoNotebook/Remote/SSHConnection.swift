import Glibc
import MemoStore
import MemoSync

/// `memo sync --serve PATH` on another machine, started through ssh: the ssh command is
/// `$MEMO_SSH` (a command line run by `/bin/sh`, as git runs `GIT_SSH_COMMAND`, so it may
/// carry options: `ssh -F ~/.ssh/other -i key`), else `ssh`; the remote program is
/// `remoteMemo` (a command line of the remote shell, like rsync's `--rsync-path`), else
/// `memo`. ssh's standard error is kept to explain a failure, and shown after a sync that
/// worked. However a sync ends, ssh is waited for and the pipes to it closed (`deinit`).
final class SSHConnection: SyncConnection {
    let channel: LineChannel
    private let process: ShellCommand
    private let toSSH: Int32, fromSSH: Int32, sshErrors: Int32
    private let sshCommand: String
    private let remoteProgram: String
    private let address: SSHAddress
    private var ending: ShellCommand.Ending?

    init(to address: SSHAddress, remoteMemo: String?, environment: Environment = .process) throws(StoreError) {
        self.address = address
        sshCommand = environment["MEMO_SSH"].flatMap { $0.allSatisfy(\.isWhitespace) ? nil : $0 } ?? "ssh"
        remoteProgram = remoteMemo ?? "memo"
        let remoteCommand = "\(remoteProgram) sync --serve \(Self.shellQuoted(address.path))"
        let arguments = (address.port.map { ["-p", String($0)] } ?? []) + [address.destination, remoteCommand]
        var pipes: [[Int32]] = []
        while pipes.count < 3 {
            guard let ends = Self.makePipe() else {
                let failure = Errno(errno)
                for descriptor in pipes.joined() { Glibc.close(descriptor) }
                throw .remote(
                    place: address.spelled, problem: "cannot make pipes for ssh: \(failure)", storeUnusable: false)
            }
            pipes.append(ends)
        }
        let (input, output, errors) = (pipes[0], pipes[1], pipes[2])
        let started = ShellCommand.start(
            sshCommand, arguments: arguments, standardInput: input[0],
            standardOutput: output[1], standardError: errors[1])
        for descriptor in [input[0], output[1], errors[1]] { Glibc.close(descriptor) }
        switch started {
        case .success(let process):
            self.process = process
        case .failure(let error):
            for descriptor in [input[1], output[0], errors[0]] { Glibc.close(descriptor) }
            throw .remote(
                place: address.spelled, problem: "cannot start '\(sshCommand)': \(error)", storeUnusable: false)
        }
        toSSH = input[1]
        fromSSH = output[0]
        sshErrors = errors[0]
        channel = LineChannel(input: fromSSH, output: toSSH, sideInput: sshErrors)
    }

    /// A connection dropped before `close` (a sync that failed) still leaves no pipe open
    /// and no ssh unreaped.
    deinit {
        end()
    }

    func close() {
        guard ending == nil else { return }
        end()
        if !channel.sideText.isEmpty {
            _ = channel.sideText.withUnsafeBytes { write(STDERR_FILENO, $0.baseAddress, $0.count) }
        }
    }

    func explainEnd(heardFromMemo: Bool) -> String {
        let ending = end()
        let said = Self.lastLine(of: channel.sideText)
        let saying = said.map { ": \($0)" } ?? ""
        if heardFromMemo {
            return
                "the connection ended in the middle of the sync (\(Self.describe(ending))\(saying)); each store keeps "
                + "what it had saved, and running the sync again completes it"
        }
        switch ending {
        case .exited(127)
        where Self.says(said, notFound: firstWord(of: remoteProgram))
            || !Self.says(said, notFound: firstWord(of: sshCommand)):
            return
                "no '\(remoteProgram)' program there\(saying); install memo there, or name it with --remote-memo PROGRAM"
        case .exited(127), .exited(126):
            return "cannot run the ssh command '\(sshCommand)'\(saying)"
        case .exited(255) where said != nil:
            return "ssh to \(address.destination) failed\(saying)"
        case .exited(255):
            return "ssh to \(address.destination) ended with exit status 255 before memo answered there "
                + "(the login failed, or the program there was killed)"
        case .exited(2) where said.map({ $0.contains("unknown option") && $0.contains("--serve") }) ?? false:
            return
                "the memo there does not know 'sync --serve'\(saying); it is older than this memo: upgrade memo there"
        default:
            return
                "the program there ended (\(Self.describe(ending))) without a word of memo's sync exchange\(saying); "
                + "is '\(remoteProgram)' memo?"
        }
    }

    /// Closes the pipes (ssh ends once its input does; output it still writes fails, so a
    /// remote that prints without end cannot hold memo), keeps what ssh still prints on
    /// standard error, and waits for it.
    @discardableResult
    private func end() -> ShellCommand.Ending {
        if let ending { return ending }
        Glibc.close(toSSH)
        Glibc.close(fromSSH)
        channel.drainSideInput()
        Glibc.close(sshErrors)
        let ending = process.waitForEnding()
        self.ending = ending
        return ending
    }

    /// A pipe whose ends close in programs memo starts (where they are not made a stream).
    private static func makePipe() -> [Int32]? {
        var ends: [Int32] = [0, 0]
        guard pipe(&ends) == 0 else { return nil }
        for end in ends { _ = fcntl(end, F_SETFD, FD_CLOEXEC) }
        return ends
    }

    private func firstWord(of command: String) -> String {
        String(command.split(separator: " ").first ?? "")
    }

    /// Whether a shell's message says `program` was not found (`sh: 1: memo: not found`,
    /// `bash: line 1: memo: command not found`, `…: No such file or directory`).
    private static func says(_ message: String?, notFound program: String) -> Bool {
        guard let message, !program.isEmpty else { return false }
        return message.contains("\(program): ") && (message.contains("not found") || message.contains("No such file"))
    }

    private static func describe(_ ending: ShellCommand.Ending) -> String {
        switch ending {
        case .exited(let status): "ssh exit status \(status)"
        case .killed(let signal): "ssh was killed by signal \(signal)"
        }
    }

    /// The last line a program printed that says something, shown on one line.
    private static func lastLine(of text: [UInt8]) -> String? {
        let lines = String(decoding: text, as: UTF8.self).split(whereSeparator: \.isNewline)
        return lines.last { !$0.allSatisfy(\.isWhitespace) }.map { TerminalText.row(String($0.prefix(300))) }
    }

    /// `text` as one word of a POSIX shell: in single quotes, each `'` written `'\''`.
    static func shellQuoted(_ text: String) -> String {
        "'" + text.replacing("'", with: "'\\''") + "'"
    }
}
