import MemoTestSupport
import Testing

@testable import MemoNotebook

/// A JSON string written from bytes in place (an export's uuid, text and tags) looks for the
/// bytes to escape eight at a time; it must write what the byte-by-byte writer writes.
@Suite("JSON strings from bytes in place")
struct JSONStringTests {
    /// Random texts of quotes, backslashes, control characters, DEL, spaces, letters and
    /// multi-byte UTF-8 (and stray bytes), of every length up to 40 and at every place of
    /// an eight-byte word, written both ways.
    @Test func bytesInPlaceAreEscapedAsByteByByte() {
        var random = SeededRandom(seed: 40)
        let pieces: [[UInt8]] = [
            [0x22], [0x5C], [0x00], [0x0A], [0x0D], [0x09], [0x1F], [0x7F], [0x20], [0x61], [0x7E],
            Array("é".utf8), Array("京".utf8), Array("👍".utf8), [0x80], [0xFF], [0x21], [0x23], [0x5B], [0x5D]
        ]
        for _ in 0..<5_000 {
            var text: [UInt8] = []
            let length = Int(random.next() % 41)
            while text.count < length { text += pieces[Int(random.next() % UInt64(pieces.count))] }
            var byteByByte: [UInt8] = [], inPlace: [UInt8] = []
            JSONValue.appendString(text, to: &byteByByte)
            text.withUnsafeBytes { JSONValue.appendString($0, to: &inPlace) }
            #expect(inPlace == byteByByte, "\(text)")
        }
    }
}
