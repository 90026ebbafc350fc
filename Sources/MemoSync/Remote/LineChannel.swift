import Glibc

/// Lines of bytes both ways over a pair of descriptors: the sync exchange's messages, one
/// JSON text a line (JSON never holds a raw newline). Writes are buffered up to
/// `flushBytes` and always flushed before a read, so a request is whole before its reply is
/// awaited; a write to a reader that is gone is `Failure.closed` (`PipeWriting`). A
/// `sideInput` (the standard error of the program on the other end) is drained into
/// `sideText` while the channel waits, so that program never blocks writing to it.
package final class LineChannel {
    package enum Failure: Error, Equatable {
        /// The other end closed the stream (or went away) in the middle of a line or a write.
        case closed
        /// A line longer than the limit (in bytes): not a message of this exchange.
        case lineTooLong(Int)
        case system(Int32)
    }

    private let input: Int32
    private let output: Int32
    private let sideInput: Int32?
    /// The last `sideTextBytes` that came on `sideInput`.
    package private(set) var sideText: [UInt8] = []
    private static let sideTextBytes = 16 << 10
    private var received: [UInt8] = []
    /// Where the unread bytes of `received` start, and how far they were searched for a newline.
    private var start = 0
    private var searched = 0
    private var pending: [UInt8] = []
    private var sideEnded = false
    private static let flushBytes = 64 << 10
    /// The longest message: a record of a memo of the longest text (1 MiB, up to six bytes
    /// a character in JSON), its deleted text and the links of its references fits.
    package static let maximumLineBytes = 64 << 20
    /// The longest line a side reads before the other's hello: a hello is short, and what
    /// a login prints before it is not held in memory whole.
    package static let maximumHelloBytes = 64 << 10
    package private(set) var bytesRead = 0
    package private(set) var bytesWritten = 0

    package init(input: Int32, output: Int32, sideInput: Int32? = nil) {
        self.input = input
        self.output = output
        self.sideInput = sideInput
    }

    /// Queues `line` and a newline; writes once enough is queued.
    package func send(_ line: some Collection<UInt8>) throws(Failure) {
        pending.append(contentsOf: line)
        pending.append(UInt8(ascii: "\n"))
        if pending.count >= Self.flushBytes { try flush() }
    }

    /// Writes everything queued.
    package func flush() throws(Failure) {
        var offset = 0
        defer { pending.removeFirst(offset) }
        while offset < pending.count {
            try waitUntilReady(output, events: Int16(POLLOUT))
            let written = pending[offset...].withUnsafeBytes { PipeWriting.write(output, $0) }
            if written < 0 {
                if errno == EINTR || errno == EAGAIN { continue }
                throw errno == EPIPE ? .closed : .system(errno)
            }
            offset += written
            bytesWritten += written
        }
    }

    /// The next line without its newline; nil when the stream ended between lines.
    package func receiveLine(maximumBytes: Int = maximumLineBytes) throws(Failure) -> ArraySlice<UInt8>? {
        try flush()
        while true {
            if let newline = received[searched...].firstIndex(of: UInt8(ascii: "\n")) {
                let line = received[start..<newline]
                start = newline + 1
                searched = start
                return line
            }
            searched = received.count
            guard received.count - start <= maximumBytes else { throw .lineTooLong(maximumBytes) }
            if start > 0 && start == received.count || start > Self.flushBytes {
                received.removeFirst(start)
                searched -= start
                start = 0
            }
            guard try readMore() else {
                if start == received.count { return nil }
                throw .closed
            }
        }
    }

    /// Reads what `input` has; false at its end.
    private func readMore() throws(Failure) -> Bool {
        var chunk = [UInt8](repeating: 0, count: Self.flushBytes)
        while true {
            try waitUntilReady(input, events: Int16(POLLIN))
            let count = chunk.withUnsafeMutableBytes { Glibc.read(input, $0.baseAddress, $0.count) }
            if count < 0 {
                if errno == EINTR || errno == EAGAIN { continue }
                throw .system(errno)
            }
            received.append(contentsOf: chunk[..<count])
            bytesRead += count
            return count > 0
        }
    }

    /// Waits until `descriptor` is ready for `events`, reading `sideInput` meanwhile; at
    /// once when there is no side input (the descriptors block).
    private func waitUntilReady(_ descriptor: Int32, events: Int16) throws(Failure) {
        guard let sideInput, !sideEnded else { return }
        var side = [UInt8](repeating: 0, count: 4096)
        while !sideEnded {
            var polled = [
                pollfd(fd: descriptor, events: events, revents: 0),
                pollfd(fd: sideInput, events: Int16(POLLIN), revents: 0)
            ]
            if poll(&polled, 2, -1) < 0 {
                if errno == EINTR { continue }
                throw .system(errno)
            }
            if polled[1].revents != 0 {
                let count = side.withUnsafeMutableBytes { Glibc.read(sideInput, $0.baseAddress, $0.count) }
                if count > 0 { keepSideText(side[..<count]) } else if count == 0 || errno != EINTR { sideEnded = true }
            }
            if polled[0].revents != 0 { return }
        }
        // The side stream ended: wait on the descriptor alone (its operation blocks).
    }

    private func keepSideText(_ bytes: ArraySlice<UInt8>) {
        sideText.append(contentsOf: bytes)
        if sideText.count > Self.sideTextBytes { sideText.removeFirst(sideText.count - Self.sideTextBytes) }
    }

    /// Reads what is left on the side input, up to its end (the program there exited).
    package func drainSideInput() {
        guard let sideInput, !sideEnded else { return }
        var side = [UInt8](repeating: 0, count: 4096)
        defer { sideEnded = true }
        while true {
            let count = side.withUnsafeMutableBytes { Glibc.read(sideInput, $0.baseAddress, $0.count) }
            if count > 0 { keepSideText(side[..<count]) } else if count == 0 || errno != EINTR { return }
        }
    }
}
