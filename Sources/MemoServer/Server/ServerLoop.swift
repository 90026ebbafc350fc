import Foundation
import MemoNotebook

/// Runs `memo serve` on standard input and output: reads frames as they arrive, and while
/// watches exist wakes every quarter second to look for other processes' changes. One
/// thread; `poll` sleeps in between, so an idle server uses no CPU.
package enum ServerLoop {
    static let watchInterval: Int32 = 250

    /// Serves until `exit` or the end of input; returns the exit status.
    package static func run(notebook: Notebook) -> Int32 {
        let writer = FrameWriter.takingOverStandardOutput()
        let errors = FileOutput(descriptor: STDERR_FILENO)
        let server = MemoServer(notebook: notebook, send: { writer.send($0.serialized) }, log: { message in
            errors.write("memo serve: \(message)\n")
            errors.flush()
        })
        var framer = MessageFramer()
        var chunk = [UInt8](repeating: 0, count: 1 << 16)
        while server.exitStatus == nil {
            var input = pollfd(fd: STDIN_FILENO, events: Int16(POLLIN), revents: 0)
            let ready = poll(&input, 1, server.wantsTicks ? watchInterval : -1)
            if ready < 0 && errno != EINTR { break }
            if ready > 0 {
                let count = chunk.withUnsafeMutableBytes { read(STDIN_FILENO, $0.baseAddress, $0.count) }
                if count < 0 && errno == EINTR { continue }
                if count <= 0 { break }
                for event in framer.receive(chunk[0..<count]) {
                    switch event {
                    case .message(let body): server.receive(body)
                    case .malformed(let reason): server.receiveMalformedFrame(reason)
                    }
                    if server.exitStatus != nil { break }
                }
            }
            server.tick()
        }
        return server.exitStatus ?? (server.isShutDown ? 0 : 1)
    }
}
