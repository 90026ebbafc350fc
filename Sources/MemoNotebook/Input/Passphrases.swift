import Glibc
import MemoStore

/// Where memo gets an encrypted store's passphrase: the first line that
/// `$MEMO_PASSPHRASE_COMMAND` prints (as `pass show memo`; `$MEMO_NEW_PASSPHRASE_COMMAND`
/// for a new one), else, where the face allows it, the terminal, asked without echo. Never a
/// command-line argument, which any user of the machine can read in the process list.
package enum Passphrases {
    /// Makes the process ask passphrases so: `askingOnTerminal` for commands a person types.
    package static func install(environment: Environment, askingOnTerminal: Bool) {
        PassphraseSource.use(
            PassphraseSource { request throws(StoreError) in
                try passphrase(request, environment: environment, askingOnTerminal: askingOnTerminal)
            })
    }

    private static func passphrase(
        _ request: PassphraseSource.Request, environment: Environment, askingOnTerminal: Bool
    ) throws(StoreError) -> SecretBytes? {
        let variable = if case .replace = request { "MEMO_NEW_PASSPHRASE_COMMAND" } else { "MEMO_PASSPHRASE_COMMAND" }
        if let command = environment[variable], !command.isEmpty {
            if case .open(_, let attempt) = request, attempt > 1 { return nil }
            return try fromCommand(command, variable: variable, path: request.path)
        }
        guard askingOnTerminal, let terminal = PassphraseTerminal() else {
            let need =
                switch request {
                case .open: "the store is encrypted"
                case .choose: "encrypting the store needs a passphrase"
                case .replace: "a new passphrase is needed"
                }
            throw .cannotOpen(
                path: request.path,
                reason: "\(need): set \(variable) to a command that prints it (there is no terminal to ask it on)")
        }
        switch request {
        case .open(let path, let attempt):
            guard attempt <= 3 else { return nil }
            if attempt > 1 { terminal.say("wrong passphrase, or the file is damaged\n") }
            return try terminal.ask("Passphrase for \(path): ", path: path)
        case .choose(let path), .replace(let path):
            let first = try terminal.ask("New passphrase for \(path): ", path: path)
            let second = try terminal.ask("The same again: ", path: path)
            guard first.isEqual(to: second) else {
                throw .cannotOpen(path: path, reason: "the two passphrases differ; nothing was changed")
            }
            return first
        }
    }

    /// The first line `command` prints, run by `/bin/sh -c` with no input: nothing it
    /// reads can be memo's own (the server's protocol, a script's commands).
    private static func fromCommand(
        _ command: String, variable: String, path: String
    ) throws(StoreError)
        -> SecretBytes
    {
        var pipeEnds: [Int32] = [0, 0]
        let input = open("/dev/null", O_RDONLY | O_CLOEXEC)
        defer { close(input) }
        guard pipe(&pipeEnds) == 0 else {
            throw .cannotOpen(path: path, reason: "cannot run \(variable): \(Errno(errno))")
        }
        let started = ShellCommand.start(
            command, standardInput: input, standardOutput: pipeEnds[1], closing: [pipeEnds[0]])
        close(pipeEnds[1])
        defer { close(pipeEnds[0]) }
        guard case .success(let process) = started, let buffer = SecretBytes(count: maximumLength) else {
            throw .cannotOpen(path: path, reason: "cannot run \(variable)")
        }
        var length = 0
        buffer.withUnsafeMutableBytes { bytes in
            // All of it is read, so the command never blocks on a full pipe; what follows
            // the first line, or the buffer, is dropped.
            var scratch = [UInt8](repeating: 0, count: 512)
            while true {
                let room = bytes.count - length
                let count =
                    room > 0 ? read(pipeEnds[0], bytes.baseAddress! + length, room) : read(pipeEnds[0], &scratch, 512)
                if count < 0, errno == EINTR { continue }
                guard count > 0 else { break }
                if room > 0 { length += count }
            }
            for index in scratch.indices { scratch[index] = 0 }
        }
        let status = process.wait()
        guard status == 0 else {
            throw .cannotOpen(path: path, reason: "\(variable) failed (exit status \(status)); nothing was written")
        }
        let line = buffer.withUnsafeBytes { bytes in bytes[..<length].firstIndex(of: UInt8(ascii: "\n")) ?? length }
        guard line > 0, let passphrase = buffer.prefix(line) else {
            throw .cannotOpen(path: path, reason: "\(variable) printed no passphrase; nothing was written")
        }
        return passphrase
    }

    /// The longest passphrase memo reads; a longer one is cut there.
    static let maximumLength = 4096
}

/// The controlling terminal (`/dev/tty`), whatever standard input and output are, with echo
/// off while a passphrase is typed: as ssh and gpg ask.
private final class PassphraseTerminal {
    private let descriptor: Int32

    init?() {
        descriptor = open("/dev/tty", O_RDWR | O_NOCTTY | O_CLOEXEC)
        guard descriptor >= 0 else { return nil }
    }

    deinit {
        close(descriptor)
    }

    func say(_ text: String) {
        var text = text
        text.withUTF8 { _ = write(descriptor, $0.baseAddress, $0.count) }
    }

    /// Asks with `prompt` and reads one line without echo.
    func ask(_ prompt: String, path: String) throws(StoreError) -> SecretBytes {
        say(prompt)
        var saved = termios()
        let hasSettings = tcgetattr(descriptor, &saved) == 0
        if hasSettings {
            var silent = saved
            silent.c_lflag &= ~tcflag_t(ECHO)
            tcsetattr(descriptor, TCSAFLUSH, &silent)
        }
        defer {
            if hasSettings { tcsetattr(descriptor, TCSAFLUSH, &saved) }
            say("\n")
        }
        guard let buffer = SecretBytes(count: Passphrases.maximumLength) else {
            throw .cannotOpen(path: path, reason: "no memory to read the passphrase in")
        }
        var length = 0
        var ended = false
        buffer.withUnsafeMutableBytes { bytes in
            var byte: UInt8 = 0
            while true {
                let count = read(descriptor, &byte, 1)
                if count < 0, errno == EINTR, !Interruption.isRequested { continue }
                guard count == 1 else { break }
                if byte == UInt8(ascii: "\n") {
                    ended = true
                    break
                }
                if length < bytes.count { bytes[length] = byte }
                length += 1
            }
            byte = 0
        }
        guard ended else { throw .interrupted }
        guard length > 0, let passphrase = buffer.prefix(min(length, buffer.count)) else {
            throw .cannotOpen(path: path, reason: "an empty passphrase; nothing was changed")
        }
        return passphrase
    }
}
