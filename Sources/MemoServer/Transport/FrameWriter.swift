import Glibc
import MemoNotebook

/// Writes LSP frames to the protocol stream. The stream is a private duplicate of the
/// original standard output; standard output itself is pointed at standard error, so a
/// stray `print` can never corrupt the protocol.
final class FrameWriter {
    private let descriptor: Int32
    /// True once a write failed: the client stopped reading or went away.
    private(set) var isBroken = false

    init(descriptor: Int32) {
        self.descriptor = descriptor
    }

    /// Takes over standard output for the protocol (`ProtocolStream`).
    static func takingOverStandardOutput() -> FrameWriter {
        FrameWriter(descriptor: ProtocolStream.takingOverStandardOutput())
    }

    /// Sends one JSON message as a frame; nothing once the client has gone.
    func send(_ json: String) {
        guard !isBroken else { return }
        let body = Array(json.utf8)
        let frame = Array("Content-Length: \(body.count)\r\n\r\n".utf8) + body
        var offset = 0
        while offset < frame.count {
            let written = frame[offset...].withUnsafeBytes { write(descriptor, $0.baseAddress, $0.count) }
            if written < 0 {
                if errno == EINTR { continue }
                isBroken = true
                return
            }
            offset += written
        }
    }
}
