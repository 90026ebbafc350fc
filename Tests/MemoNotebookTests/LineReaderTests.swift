import Glibc
import Testing

@testable import MemoNotebook

/// `LineReader` checks each line's UTF-8 by hand: it must accept exactly what the standard
/// library accepts.
@Suite("Line reader")
struct LineReaderTests {
    /// The lines `LineReader` reads from these bytes, written through a pipe.
    private func lines(_ bytes: [UInt8]) -> [LineReader.Line] {
        var ends: [Int32] = [0, 0]
        guard pipe(&ends) == 0 else { return [] }
        _ = bytes.withUnsafeBytes { write(ends[1], $0.baseAddress, $0.count) }
        close(ends[1])
        defer { close(ends[0]) }
        let reader = LineReader(descriptor: ends[0])
        var lines: [LineReader.Line] = []
        while let line = reader.next() { lines.append(line) }
        return lines
    }

    @Test(
        arguments: [
            [0x61, 0x62], [0xC3, 0xA9], [0xE6, 0x97, 0x85], [0xF0, 0x9F, 0x8E, 0x89], [0xEF, 0xBF, 0xBD],
            [0xED, 0x9F, 0xBF], [0xF4, 0x8F, 0xBF, 0xBF], [0xE0, 0xA0, 0x80], [0xF0, 0x90, 0x80, 0x80],
            // Overlong, surrogate, beyond U+10FFFF, stray continuation, truncated, bad lead bytes.
            [0xC0, 0xAF], [0xC1, 0xBF], [0xE0, 0x9F, 0xBF], [0xED, 0xA0, 0x80], [0xF0, 0x8F, 0xBF, 0xBF],
            [0xF4, 0x90, 0x80, 0x80], [0xF5, 0x80, 0x80, 0x80], [0x80], [0xBF, 0x61], [0xE6, 0x97], [0x61, 0xE6],
            [0xF0, 0x90, 0x80, 0x61], [0xC3, 0x28], [0xE6, 0x28, 0x85], [0xFE], [0xFF, 0x61]
        ] as [[UInt8]])
    func acceptsWhatTheStandardLibraryAccepts(_ bytes: [UInt8]) {
        let expected: LineReader.Line =
            String(validating: bytes, as: UTF8.self).map(LineReader.Line.text) ?? .invalidUTF8
        #expect(lines([0x78] + bytes + [0x79, 0x0A, 0x7A]) == [prefixed(expected), .text("z")])
    }

    /// `expected` with the `x` and `y` the test puts around its bytes.
    private func prefixed(_ line: LineReader.Line) -> LineReader.Line {
        guard case .text(let text) = line else { return line }
        return .text("x" + text + "y")
    }
}
