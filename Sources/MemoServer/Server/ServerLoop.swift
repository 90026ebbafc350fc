import Glibc
import MemoNotebook

/// Runs `memo serve` on standard input and output: reads frames as they arrive, answers
/// them, and then reports watch changes: once input has paused, so a burst of pipelined
/// requests is answered first and makes one notification per watch (but at least every
/// quarter second under steady input). While watches exist it also wakes every quarter
/// second to see other processes' changes. One thread; `poll` sleeps in between, so an
/// idle server uses no CPU.
package enum ServerLoop {
    static let watchInterval: Int32 = 250

    /// Serves until `exit`, the end of input, or a client that stops reading (status 1).
    package static func run(notebook: Notebook) -> Int32 {
        let writer = FrameWriter.takingOverStandardOutput()
        let errors = FileOutput(descriptor: STDERR_FILENO)
        let log = { (message: String) in
            errors.write("memo serve: \(message)\n")
            errors.flush()
        }
        let server = MemoServer(
            notebook: notebook, memoFilesFolder: MemoFiles.folder(environment: .process),
            send: { writer.send($0.serialized) }, log: log)
        // An encrypted store's server logs no bytes it received: they may be a memo's text.
        var framer = MessageFramer(quotesHeaders: !notebook.isStoreSealed)
        var chunk = [UInt8](repeating: 0, count: 1 << 16)
        var lastTick = ContinuousClock.now
        while server.exitStatus == nil, !writer.isBroken {
            let ready = waitForInput(
                milliseconds: server.hasBackgroundWork ? 0 : server.wantsTicks ? watchInterval : -1)
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
                let burstGoesOn = waitForInput(milliseconds: 0) > 0
                if burstGoesOn && ContinuousClock.now - lastTick < .milliseconds(Int(watchInterval)) { continue }
            }
            server.tick()
            lastTick = ContinuousClock.now
        }
        server.finish()
        if writer.isBroken {
            log("the client stopped reading; exiting")
            return 1
        }
        return server.exitStatus ?? (server.isShutDown ? 0 : 1)
    }

    /// `poll` on standard input: above 0 when input is ready, 0 on time-out, below 0 on error.
    private static func waitForInput(milliseconds: Int32) -> Int32 {
        var input = pollfd(fd: STDIN_FILENO, events: Int16(POLLIN), revents: 0)
        return poll(&input, 1, milliseconds)
    }
}
