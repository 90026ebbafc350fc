import Foundation

/// Writes LSP frames to the protocol stream. The stream is a private duplicate of the
/// original standard output; standard output itself is pointed at standard error, so a
/// stray `print` can never corrupt the protocol.
final class FrameWriter {
    private let descriptor: Int32

    init(descriptor: Int32) {
        self.descriptor = descriptor
    }

    /// Takes over standard output for the protocol and sends everything else to stderr.
    static func takingOverStandardOutput() -> FrameWriter {
        let protocolStream = dup(STDOUT_FILENO)
        dup2(STDERR_FILENO, STDOUT_FILENO)
        return FrameWriter(descriptor: protocolStream >= 0 ? protocolStream : STDOUT_FILENO)
    }

    /// Sends one JSON message as a frame; false when the client has gone.
    @discardableResult
    func send(_ json: String) -> Bool {
        let body = Array(json.utf8)
        let frame = Array("Content-Length: \(body.count)\r\n\r\n".utf8) + body
        var offset = 0
        while offset < frame.count {
            let written = frame[offset...].withUnsafeBytes { write(descriptor, $0.baseAddress, $0.count) }
            if written < 0 {
                if errno == EINTR { continue }
                return false
            }
            offset += written
        }
        return true
    }
}
