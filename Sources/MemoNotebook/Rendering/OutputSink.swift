import Glibc

/// Where rendered text goes.
package protocol OutputSink: AnyObject {
    func write(_ text: String)
    /// Writes text already encoded as UTF-8.
    func write(utf8 bytes: [UInt8])
    /// Writes out anything buffered, so what follows on another stream comes after it.
    func flush()
    /// True once writing failed or the reader went away: a listing stops early then.
    var isBroken: Bool { get }
}

extension OutputSink {
    package func write(utf8 bytes: [UInt8]) {
        write(String(decoding: bytes, as: UTF8.self))
    }

    package func flush() {}
    package var isBroken: Bool { false }
}

/// Output nobody reads: fixtures run their commands silently.
final class DiscardedOutput: OutputSink {
    func write(_ text: String) {}
}

/// Collects output in memory: for `memo/execute` and tests.
package final class StringOutput: OutputSink {
    package private(set) var text = ""

    package init() {}

    package func write(_ text: String) {
        self.text += text
    }

    /// What was written since the last call, emptying the buffer.
    package func take() -> String {
        defer { text = "" }
        return text
    }
}

/// Buffered output to a file descriptor, so listing a million memos makes few system calls.
/// A closed pipe (`memo list | head`) ends writing quietly; any other failed write (a full
/// disk, `> /dev/full`) is kept in `failure` for the program to report.
package final class FileOutput: OutputSink {
    private let descriptor: Int32
    private var buffer: [UInt8] = []
    private let capacity = 1 << 16
    package private(set) var isBroken = false
    /// Why a write failed, other than a closed pipe; nil while all is well.
    package private(set) var failure: String?

    package init(descriptor: Int32) {
        self.descriptor = descriptor
        buffer.reserveCapacity(capacity)
    }

    package func write(_ text: String) {
        buffer.append(contentsOf: text.utf8)
        if buffer.count >= capacity { flush() }
    }

    package func write(utf8 bytes: [UInt8]) {
        buffer.append(contentsOf: bytes)
        if buffer.count >= capacity { flush() }
    }

    /// Writes out what is buffered.
    package func flush() {
        defer { buffer.removeAll(keepingCapacity: true) }
        guard !isBroken else { return }
        var offset = 0
        while offset < buffer.count {
            let written = buffer[offset...].withUnsafeBytes { Glibc.write(descriptor, $0.baseAddress, $0.count) }
            if written < 0 {
                if errno == EINTR { continue }
                if errno != EPIPE { failure = String(cString: strerror(errno)) }
                isBroken = true
                return
            }
            offset += written
        }
    }

    deinit {
        flush()
    }
}
