import CEditLine
import Glibc
import MemoModel

/// The terminal's input, a byte at a time: what the user types, and the terminal's answers
/// to what memo asks it. Bytes typed while an answer is awaited are kept, and read first
/// afterwards, in their order.
struct TerminalInput {
    private var typedEarly: [UInt8] = []

    /// Reads one byte as `read(2)` would: 1, 0 at the end of input, -1 with `errno` set.
    mutating func read(into byte: inout CChar) -> Int {
        guard typedEarly.isEmpty else {
            byte = CChar(bitPattern: typedEarly.removeFirst())
            return 1
        }
        return Glibc.read(STDIN_FILENO, &byte, 1)
    }

    /// Where the cursor is on the screen, 0 for the top row and the left column: the terminal
    /// answers `ESC [ 6 n` with `ESC [ row ; column R`. Nil when it does not answer within half
    /// a second, or when Ctrl-C was sent by `kill`.
    mutating func cursorPosition() -> (row: Int, column: Int)? {
        fputs("\u{1B}[6n", memo_stdout())
        fflush(memo_stdout())
        var received: [UInt8] = []
        let deadline = ContinuousClock.now + .milliseconds(500)
        while true {
            if let (position, answer) = Self.cursorReport(in: received) {
                received.removeSubrange(answer)
                typedEarly += received
                return position
            }
            let wait = deadline - ContinuousClock.now
            var terminal = pollfd(fd: STDIN_FILENO, events: Int16(POLLIN), revents: 0)
            let ready = wait > .zero ? poll(&terminal, 1, Int32((wait / .milliseconds(1)).rounded(.up))) : 0
            var chunk = [UInt8](repeating: 0, count: 64)
            let count = ready > 0 ? Glibc.read(STDIN_FILENO, &chunk, chunk.count) : Int(ready)
            // Another resize: redrawn after this one.
            if count < 0, errno == EINTR, !Interruption.isRequested { continue }
            guard count > 0 else {
                typedEarly += received
                return nil
            }
            received += chunk[..<count]
        }
    }

    /// The first `ESC [ row ; column R` among `bytes`, counted from 0, and where that answer is.
    private static func cursorReport(in bytes: [UInt8]) -> (position: (row: Int, column: Int), answer: Range<Int>)? {
        for start in bytes.indices where bytes[start] == 0x1B {
            guard let end = bytes[start...].firstIndex(of: UInt8(ascii: "R")) else { return nil }
            let inside = bytes[(start + 1)..<end]
            guard inside.first == UInt8(ascii: "[") else { continue }
            let fields = inside.dropFirst().split(separator: UInt8(ascii: ";"), omittingEmptySubsequences: false)
            guard fields.count == 2, fields.allSatisfy({ !$0.isEmpty && $0.allSatisfy { (0x30...0x39).contains($0) } }),
                let row = Int(String(decoding: fields[0], as: UTF8.self)), row > 0,
                let column = Int(String(decoding: fields[1], as: UTF8.self)), column > 0
            else { continue }
            return ((row - 1, column - 1), start..<(end + 1))
        }
        return nil
    }
}
