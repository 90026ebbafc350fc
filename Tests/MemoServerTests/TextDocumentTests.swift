import MemoTestSupport
import Testing

@testable import MemoServer

/// `TextDocument` edits only the lines a change touches; these tests hold it to the plain
/// meaning of a change: the same replacement made in the whole text.
@Suite("Open documents")
struct TextDocumentTests {
    /// The whole-text model: positions found by walking the text, as LSP defines them.
    private struct WholeText {
        var text: String

        mutating func apply(_ newText: String, replacing range: PositionRange, encoding: PositionEncoding) {
            let start = index(of: range.start, encoding: encoding)
            let end = max(start, index(of: range.end, encoding: encoding))
            text.replaceSubrange(start..<end, with: newText)
        }

        func index(of position: Position, encoding: PositionEncoding) -> String.Index {
            var lineStart = text.startIndex
            for _ in 0..<max(0, position.line) {
                guard let lineBreak = text[lineStart...].firstIndex(where: isLineBreak) else { return text.endIndex }
                lineStart = text.index(after: lineBreak)
            }
            let lineEnd = text[lineStart...].firstIndex(where: isLineBreak) ?? text.endIndex
            return encoding.index(at: position.character, in: text[lineStart..<lineEnd])
        }

        var lines: [String] {
            text.split(omittingEmptySubsequences: false, whereSeparator: isLineBreak).map(String.init)
        }

        private func isLineBreak(_ character: Character) -> Bool {
            character == "\n" || character == "\r" || character == "\r\n"
        }
    }

    /// Random texts and positions from a seeded generator, so a failure repeats.
    private struct Generator {
        var random: SeededRandom

        mutating func next(_ bound: Int) -> Int { random.next(bound) }

        mutating func text(_ length: Int) -> String {
            let pieces = ["a", "add x", "\n", "\r", "\r\n", "日本", "🎉", "e\u{301}", " ", "#1", "\u{2028}"]
            return (0..<next(length + 1)).map { _ in pieces[next(pieces.count)] }.joined()
        }

        mutating func position(lines: Int) -> Position {
            Position(line: next(lines + 2) - 1, character: next(12) - 1)
        }
    }

    /// Editors send edits inside grapheme clusters: Neovim's `x` on the first regional
    /// indicator of a flag or on the man of a family emoji, a deleted combining accent. The
    /// edit lands at its exact code-unit offset, in both encodings.
    /// Up to 64 MiB and 2,000,000 lines are kept; one byte or line more is not.
    @Test func theLimitsAreSixtyFourMebibytesAndTwoMillionLines() {
        let large = String(repeating: "x", count: 64 << 20)
        #expect(!TextDocument(uri: "file:///a.md", languageId: "markdown", version: 1, text: large).isUnkept)
        #expect(
            TextDocument(uri: "file:///a.md", languageId: "markdown", version: 1, text: large + "x").unkept
                == .tooLarge(bytes: (64 << 20) + 1, lines: 0))
        let breaks = String(repeating: "\n", count: 1_999_999)
        #expect(!TextDocument(uri: "file:///a.md", languageId: "markdown", version: 1, text: breaks).isUnkept)
        #expect(
            TextDocument(uri: "file:///a.md", languageId: "markdown", version: 1, text: breaks + "\r").unkept
                == .tooLarge(bytes: 2_000_000, lines: 2_000_001))
    }

    @Test(
        arguments: [
            ("e\u{301} #1", 1, 2, 1, 3, "e #1"),
            ("🇯🇵 #1", 0, 2, 0, 4, "🇵 #1"),
            ("👨\u{200D}👩\u{200D}👧 #1", 0, 2, 0, 4, "\u{200D}👩\u{200D}👧 #1"),
            ("ab🎉c", 4, 4, 6, 6, "ab🎉xc")
        ] as [(String, Int, Int, Int, Int, String)])
    func editsInsideGraphemeClustersLandAtTheirOffset(
        _ text: String, _ utf16Start: Int, _ utf16End: Int,
        _ utf8Start: Int, _ utf8End: Int, _ expected: String
    ) {
        let inserted = expected.contains("x") ? "x" : ""
        for (encoding, start, end) in [(PositionEncoding.utf16, utf16Start, utf16End), (.utf8, utf8Start, utf8End)] {
            var document = TextDocument(uri: "file:///a.md", languageId: "markdown", version: 1, text: text)
            document.apply(
                inserted,
                replacing: PositionRange(
                    start: Position(line: 0, character: start), end: Position(line: 0, character: end)),
                encoding: encoding)
            #expect(document.text.unicodeScalars.elementsEqual(expected.unicodeScalars), "\(encoding)")
        }
    }

    @Test(arguments: PropertySeeds.seeds(standard: 8))
    func incrementalChangesMatchTheWholeText(seed: UInt64) {
        var generator = Generator(random: SeededRandom(seed: seed))
        for encoding in [PositionEncoding.utf16, .utf8] {
            var expected = WholeText(text: generator.text(30))
            var document = TextDocument(uri: "file:///a.memo", languageId: "memo", version: 1, text: expected.text)
            for _ in 0..<300 {
                let lines = expected.lines.count
                let range = PositionRange(
                    start: generator.position(lines: lines), end: generator.position(lines: lines))
                let newText = generator.text(4)
                expected.apply(newText, replacing: range, encoding: encoding)
                document.apply(newText, replacing: range, encoding: encoding)
                #expect(document.text == expected.text)
                #expect(document.utf8Count == expected.text.utf8.count)
                #expect((0..<document.lineCount).map { document.line($0) } == expected.lines)
                if document.text != expected.text { return }
            }
        }
    }
}
