import Glibc

/// A command line a user configured (`$EDITOR`, `$PAGER`), run by `/bin/sh -c` as git runs
/// them, so it may carry its own arguments (`code --wait`, `less -R`).
package struct ShellCommand {
    package let process: pid_t

    /// Starts `command` with `arguments` as `$1`, `$2`…; with `standardInput`,
    /// `standardOutput` or `standardError`, that descriptor takes the place of the stream
    /// in it (and is closed there under its own number, as are `closing`).
    /// The error is `posix_spawn`'s code.
    package static func start(_ command: String, arguments: [String] = [], standardInput: Int32? = nil,
                              standardOutput: Int32? = nil, standardError: Int32? = nil,
                              closing: [Int32] = []) -> Result<ShellCommand, Errno> {
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        let streams = [(standardInput, STDIN_FILENO), (standardOutput, STDOUT_FILENO), (standardError, STDERR_FILENO)]
        for case (let descriptor?, let stream) in streams { posix_spawn_file_actions_adddup2(&actions, descriptor, stream) }
        for case (let descriptor?, _) in streams where descriptor > STDERR_FILENO {
            posix_spawn_file_actions_addclose(&actions, descriptor)
        }
        for descriptor in closing { posix_spawn_file_actions_addclose(&actions, descriptor) }
        let script = arguments.isEmpty ? command : command + " \"$@\""
        let words = ["sh", "-c", script, "sh"] + arguments
        let argv: [UnsafeMutablePointer<CChar>?] = words.map { strdup($0) } + [nil]
        defer { argv.forEach { free($0) } }
        var process = pid_t()
        let code = posix_spawn(&process, "/bin/sh", &actions, nil, argv, environ)
        return code == 0 ? .success(ShellCommand(process: process)) : .failure(Errno(code))
    }

    /// Waits for it to end; its exit status, or 128 plus the signal that ended it.
    package func wait() -> Int32 {
        var status: Int32 = 0
        while waitpid(process, &status, 0) < 0 {
            guard errno == EINTR else { return -1 }
        }
        return status & 0x7f == 0 ? (status >> 8) & 0xff : 128 + (status & 0x7f)
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
