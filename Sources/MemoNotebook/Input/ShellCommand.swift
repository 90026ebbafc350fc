import Glibc

/// A command line a user configured (`$EDITOR`, `$PAGER`), run by `/bin/sh -c` as git runs
/// them, so it may carry its own arguments (`code --wait`, `less -R`).
package struct ShellCommand {
    package let process: pid_t

    /// Starts `command` with `arguments` as `$1`, `$2`…; with `standardInput`,
    /// `standardOutput` or `standardError`, that descriptor takes the place of the stream
    /// in it (and is closed there under its own number, as are `closing`).
    /// The error is `posix_spawn`'s code.
    package static func start(
        _ command: String, arguments: [String] = [], standardInput: Int32? = nil,
        standardOutput: Int32? = nil, standardError: Int32? = nil,
        closing: [Int32] = []
    ) -> Result<ShellCommand, Errno> {
        let script = arguments.isEmpty ? command : command + " \"$@\""
        return spawn(
            "/bin/sh", arguments: ["sh", "-c", script, "sh"] + arguments, standardInput: standardInput,
            standardOutput: standardOutput, standardError: standardError, closing: closing)
    }

    /// Starts `program` with `arguments` (its own name first) as its argv, no shell between:
    /// a program name without a slash is looked for on `$PATH`. The other parameters are
    /// `start`'s; `environment` (`NAME=value` words), when given, takes the place of memo's.
    package static func spawn(
        _ program: String, arguments: [String], environment: [String]? = nil, standardInput: Int32? = nil,
        standardOutput: Int32? = nil, standardError: Int32? = nil, closing: [Int32] = []
    ) -> Result<ShellCommand, Errno> {
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        let streams = [(standardInput, STDIN_FILENO), (standardOutput, STDOUT_FILENO), (standardError, STDERR_FILENO)]
        for case (let descriptor?, let stream) in streams {
            posix_spawn_file_actions_adddup2(&actions, descriptor, stream)
        }
        for case (let descriptor?, _) in streams where descriptor > STDERR_FILENO {
            posix_spawn_file_actions_addclose(&actions, descriptor)
        }
        for descriptor in closing { posix_spawn_file_actions_addclose(&actions, descriptor) }
        let argv: [UnsafeMutablePointer<CChar>?] = arguments.map { strdup($0) } + [nil]
        defer { argv.forEach { free($0) } }
        let variables: [UnsafeMutablePointer<CChar>?]? = environment.map { $0.map { strdup($0) } + [nil] }
        defer { variables?.forEach { free($0) } }
        var process = pid_t()
        let code =
            variables.map { posix_spawnp(&process, program, &actions, nil, argv, $0) }
            ?? posix_spawnp(&process, program, &actions, nil, argv, environ)
        return code == 0 ? .success(ShellCommand(process: process)) : .failure(Errno(code))
    }

    /// How a command ended: its exit status, or the signal that ended it.
    package enum Ending: Equatable {
        case exited(Int32)
        case killed(signal: Int32)
    }

    /// Waits for it to end.
    package func waitForEnding() -> Ending {
        var status: Int32 = 0
        while waitpid(process, &status, 0) < 0 {
            guard errno == EINTR else { return .exited(-1) }
        }
        return status & 0x7f == 0 ? .exited((status >> 8) & 0xff) : .killed(signal: status & 0x7f)
    }

    /// Waits for it to end; its exit status, or 128 plus the signal that ended it (as a shell says).
    package func wait() -> Int32 {
        switch waitForEnding() {
        case .exited(let status): status
        case .killed(let signal): 128 + signal
        }
    }
}

/// A system error code, with the system's words for it.
package struct Errno: Error, CustomStringConvertible {
    package let code: Int32

    package init(_ code: Int32) {
        self.code = code
    }

    package var description: String { String(cString: strerror(code)) }
}
