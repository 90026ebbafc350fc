import MemoNotebook

/// The places a `textDocument/references` answers, each once, in the order first added: a
/// place is remembered by its file and range, so adding one costs the same however many came
/// before (a note citing a memo on each of 20,000 lines).
struct Locations {
    private struct Place: Hashable {
        let uri: String
        let line: Int
        let start: Int
        let end: Int
    }

    private var seen: Set<Place> = []
    private var places: [Place] = []

    /// Adds the place from column `start` to `end` of `line` in `uri`, unless it is there.
    mutating func add(_ uri: String, line: Int, _ start: Int, _ end: Int) {
        let place = Place(uri: uri, line: line, start: start, end: end)
        if seen.insert(place).inserted { places.append(place) }
    }

    /// The places as LSP `Location`s.
    var json: JSONValue {
        .array(
            places.map { place in
                func position(_ character: Int) -> JSONValue {
                    .object([("line", .integer(Int64(place.line))), ("character", .integer(Int64(character)))])
                }
                return .object([
                    ("uri", .string(place.uri)),
                    ("range", .object([("start", position(place.start)), ("end", position(place.end))]))
                ])
            })
    }
}

/// The lines of a text (as LSP counts them: ended by `\n`, `\r\n` or `\r`) found by byte
/// offset, read on from where the last one was found: places asked in text order cost one
/// reading of the text in all, not one from its start each.
struct TextLines {
    private let text: String
    /// The number and start of the line read up to `read`, which is in it.
    private var number = 0
    private var lineStart: String.Index
    private var read: String.Index
    /// The end and text of the line `lineStart` begins, once made.
    private var current: (end: String.Index, text: String)?

    init(_ text: String) {
        self.text = text
        lineStart = text.utf8.startIndex
        read = lineStart
    }

    /// The line (number and text) that holds the bytes `start..<start + length`, and their
    /// range in it; nil when they are not within one line.
    mutating func line(ofBytes start: Int, length: Int) -> (Int, String, Range<String.Index>)? {
        let bytes = text.utf8
        guard start >= 0, length >= 0, start + length <= bytes.count else { return nil }
        let referenceStart = bytes.index(bytes.startIndex, offsetBy: start)
        if referenceStart < lineStart {
            (number, lineStart, read, current) = (0, bytes.startIndex, bytes.startIndex, nil)
        }
        while read < referenceStart {
            let byte = bytes[read]
            read = bytes.index(after: read)
            guard Self.isBreak(byte) else { continue }
            if byte == UInt8(ascii: "\r"), read < bytes.endIndex, bytes[read] == UInt8(ascii: "\n") {
                read = bytes.index(after: read)
            }
            (number, lineStart, current) = (number + 1, read, nil)
        }
        let line: (end: String.Index, text: String)
        if let current {
            line = current
        } else {
            let end = bytes[lineStart...].firstIndex(where: Self.isBreak) ?? bytes.endIndex
            line = (end, String(text[lineStart..<end]))
            current = line
        }
        guard bytes.distance(from: referenceStart, to: line.end) >= length else { return nil }
        let lower = line.text.utf8.index(
            line.text.startIndex, offsetBy: bytes.distance(from: lineStart, to: referenceStart))
        return (number, line.text, lower..<line.text.utf8.index(lower, offsetBy: length))
    }

    private static func isBreak(_ byte: UInt8) -> Bool {
        byte == UInt8(ascii: "\n") || byte == UInt8(ascii: "\r")
    }
}
