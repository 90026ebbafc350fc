import Glibc
import MemoStore
import MemoSync
import Testing

@testable import MemoNotebook

/// The ssh that carries `memo sync HOST:PATH` is memo's child: however a sync ends, memo
/// reaps it and closes the pipes to it, and a write to an ssh that died is an error, not
/// the end of memo (nor of the REPL or server it runs in). A shell script stands in for ssh
/// here (`$MEMO_SSH`); the e2e suite runs a real one.
@Suite("The ssh connection of a sync", .serialized)
struct SSHConnectionTests {
    /// A connection to a stand-in for ssh: the shell command `script` (its arguments, the
    /// destination and the remote command, are left unread).
    func connection(running script: String) throws -> SSHConnection {
        guard case .ssh(let address) = try SyncTarget.parse("box:notes.sqlite") else {
            throw CommandError.invalid("not an address")
        }
        return try SSHConnection(to: address, remoteMemo: nil, environment: Environment(["MEMO_SSH": script + " #"]))
    }

    @Test func aConnectionDroppedWithoutClosingReapsSshAndClosesItsPipes() throws {
        // The stand-in says its process id, then echoes its input until that ends.
        var connection: SSHConnection? = try connection(running: "echo $$; exec cat")
        let line = try #require(try connection?.channel.receiveLine())
        let process = try #require(pid_t(String(decoding: line, as: UTF8.self)))
        let pipes = try (0...2).map { stream in try #require(Self.link(of: "/proc/\(process)/fd/\(stream)")) }
        #expect(pipes.allSatisfy { $0.hasPrefix("pipe:") })
        #expect(Self.ownDescriptors(linkingTo: pipes).count == 3)

        connection = nil

        #expect(Self.ownDescriptors(linkingTo: pipes).isEmpty, "a pipe to ssh is still open")
        #expect(kill(process, 0) == -1 && errno == ESRCH, "ssh was not reaped")
    }

    /// SIGPIPE is not swapped for the length of a sync: another thread (the server's, the
    /// REPL's pager) may rely on what the process does with it.
    @Test func theProcessesPipeSignalActionStaysAsItWas() throws {
        let before = Self.pipeSignalAction()
        let connection = try connection(running: "exec cat")
        #expect(Self.pipeSignalAction() == before)
        connection.close()
        #expect(Self.pipeSignalAction() == before)
    }

    /// With SIGPIPE left as the process has it (here its default, which ends a process), a
    /// write to an ssh that is gone fails as a closed stream.
    @Test func aWriteToAnSshThatEndedIsAClosedStream() throws {
        let connection = try connection(running: "exit 0")
        // Its output ends when it exits, and with it the only reader of its input.
        #expect(try connection.channel.receiveLine() == nil)
        // A program another test starts at this moment holds a copy of every descriptor
        // between its fork and its exec, the read end too: a write succeeds until it execs.
        // So the test waits for the state "no reader left": six bytes a try, 30 KB at most,
        // below the 64 KB a pipe holds, so no write blocks.
        var failure: LineChannel.Failure?
        for _ in 0..<5_000 where failure == nil {
            try connection.channel.send(Array("hello".utf8))
            do { try connection.channel.flush() } catch { failure = error }
        }
        #expect(failure == .closed)
        #expect(
            connection.explainEnd(heardFromMemo: true).hasPrefix(
                "the connection ended in the middle of the sync (ssh exit status 0)"))
    }

    private static func pipeSignalAction() -> UInt {
        var action = sigaction()
        sigaction(SIGPIPE, nil, &action)
        return unsafeBitCast(action.__sigaction_handler.sa_handler, to: UInt.self)
    }

    /// What the symbolic link `path` names (`pipe:[123]` for a descriptor of a pipe).
    private static func link(of path: String) -> String? {
        var target = [CChar](repeating: 0, count: 256)
        let count = readlink(path, &target, target.count - 1)
        guard count > 0 else { return nil }
        return String(decoding: target[..<count].map { UInt8(bitPattern: $0) }, as: UTF8.self)
    }

    /// This process's descriptors that are one of `targets` (`pipe:[123]`).
    private static func ownDescriptors(linkingTo targets: [String]) -> [String] {
        guard let folder = opendir("/proc/self/fd") else { return [] }
        defer { closedir(folder) }
        var found: [String] = []
        while let entry = readdir(folder) {
            let name = withUnsafeBytes(of: entry.pointee.d_name) {
                String(decoding: $0.prefix { $0 != 0 }, as: UTF8.self)
            }
            if let target = link(of: "/proc/self/fd/\(name)"), targets.contains(target) { found.append(name) }
        }
        return found
    }
}
