import MemoTestSupport
import Testing

@testable import MemoStore

/// `UTF8Bytes` must answer as the standard library decodes: strict validity from
/// `UTF8Span(validating:)`, and control characters as `Unicode.Scalar.Properties` names them.
@Suite("UTF-8 validation of raw bytes")
struct UTF8BytesTests {
    private static func expected(_ bytes: [UInt8]) -> UTF8Bytes.Kind {
        guard (try? UTF8Span(validating: bytes.span)) != nil else { return .invalid }
        let text = String(decoding: bytes, as: UTF8.self)
        return text.unicodeScalars.contains { $0.properties.generalCategory == .control } ? .withControls : .plain
    }

    private static func kind(_ bytes: [UInt8]) -> UTF8Bytes.Kind {
        bytes.withUnsafeBytes(UTF8Bytes.kind)
    }

    /// Every one and two bytes, and after every pair a third byte from each class of bytes.
    @Test func sequencesOfUpToThreeBytesAreJudgedAsSwiftDecodesThem() {
        var mismatches: [[UInt8]] = []
        for first in 0...255 {
            for second in 0...255 {
                let pair = [UInt8(first), UInt8(second)]
                if Self.kind(pair) != Self.expected(pair) { mismatches.append(pair) }
                guard first >= 0xE0 else { continue }
                for third in [0x00, 0x1F, 0x41, 0x7F, 0x80, 0x8F, 0x90, 0x9F, 0xA0, 0xBF, 0xC0, 0xC2, 0xE0, 0xF4, 0xFF]
                {
                    let triple = pair + [UInt8(third)]
                    if Self.kind(triple) != Self.expected(triple) { mismatches.append(triple) }
                }
            }
            if Self.kind([UInt8(first)]) != Self.expected([UInt8(first)]) { mismatches.append([UInt8(first)]) }
        }
        #expect(mismatches.isEmpty, "\(mismatches.prefix(10))")
    }

    @Test func fourByteSequencesAreJudgedAsSwiftDecodesThem() {
        var mismatches: [[UInt8]] = []
        for lead in 0xEE...0xFF {
            for second in 0x70...0xC0 {
                for third in [0x7F, 0x80, 0xA5, 0xBF, 0xC0] {
                    for fourth in [0x41, 0x7F, 0x80, 0x9F, 0xBF, 0xC0] {
                        let bytes = [UInt8(lead), UInt8(second), UInt8(third), UInt8(fourth)]
                        if Self.kind(bytes) != Self.expected(bytes) { mismatches.append(bytes) }
                    }
                }
            }
        }
        #expect(mismatches.isEmpty, "\(mismatches.prefix(10))")
    }

    /// Texts long enough for the eight-byte steps, with the odd byte anywhere in them.
    @Test(arguments: PropertySeeds.seeds(standard: 4)) func randomTextsAreJudgedAsSwiftDecodesThem(seed: UInt64) {
        var random = SeededRandom(seed: seed)
        let pieces: [[UInt8]] =
            ["a", "plain words ", "é", "京都", "🎉", "\n", "\t", "\u{7F}", "\u{85}", "\u{A0}", "\u{9F}"]
            .map { Array($0.utf8) } + [
                [0xC2], [0x80], [0xED, 0xA0, 0x80], [0xF4, 0x90, 0x80, 0x80], [0xC0, 0xAF], [0xFF]
            ]
        var mismatches: [[UInt8]] = []
        for _ in 0..<20_000 {
            var bytes: [UInt8] = []
            for _ in 0..<Int(random.next() % 12) { bytes += pieces[Int(random.next() % UInt64(pieces.count))] }
            if Self.kind(bytes) != Self.expected(bytes) { mismatches.append(bytes) }
        }
        #expect(mismatches.isEmpty, "\(mismatches.prefix(5))")
    }
}
