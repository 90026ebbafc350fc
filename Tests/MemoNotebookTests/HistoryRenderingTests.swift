import MemoStore
import Testing

@testable import MemoNotebook

/// `history` as text: columns as wide as the entries need, and lines fitted to the terminal
/// as `list` fits them.
@Suite("History as text")
struct HistoryRenderingTests {
    private let entries = [
        HistoryEntry(
            sequence: 100, time: Timestamp(secondsSince1970: 946_684_805), kind: .undo, target: 9, memoCount: 12_000,
            summary: "memo 1", isUndone: false),
        HistoryEntry(
            sequence: 10, time: Timestamp(secondsSince1970: 946_684_801), kind: .add, target: nil, memoCount: 1,
            summary: "Buy milk, eggs and coffee beans for the whole week @shopping", isUndone: true),
        HistoryEntry(
            sequence: 9, time: Timestamp(secondsSince1970: 946_684_800), kind: .import, target: nil, memoCount: 12_000,
            summary: "memo 1", isUndone: true)
    ]

    private func rendered(width: Int?) throws -> String {
        let output = StringOutput()
        try TextRenderer(style: TextStyle(width: width, color: false, displayTime: .utc)).render(
            .history(entries), to: output)
        return output.text
    }

    @Test func columnsFitTheWidestEntryAndNumbersAlignRight() throws {
        #expect(
            try rendered(width: nil) == """
                100  2000-01-01 00:00:05  undo 9    12000 memos  memo 1
                 10  2000-01-01 00:00:01  add       1 memo       Buy milk, eggs and coffee beans for the whole week @shopping  (undone)
                  9  2000-01-01 00:00:00  import    12000 memos  memo 1  (undone)

                """)
    }

    @Test(arguments: [80, 60, 40, 10, 1])
    func linesFitTheTerminalKeepingWhetherTheyAreUndone(_ width: Int) throws {
        let lines = try rendered(width: width).split(separator: "\n")
        #expect(lines.count == 3)
        for line in lines { #expect(DisplayWidth.of(line) <= width, "\(line) is wider than \(width)") }
        if width == 80 {
            #expect(lines[1] == " 10  2000-01-01 00:00:01  add       1 memo       Buy milk, eggs and c…  (undone)")
        }
    }
}
