import Testing
@testable import MemoNotebook

@Suite("Transcripts and diffs")
struct TranscriptTests {
    @Test func parsesCommandsContinuationsAndOutput() {
        let transcript = Transcript(parsing: """
            A comment line.
            memo> add <<END
            ...> body
            ...>
            ...> END
            added #1
            memo>
            memo> list
            ...> not a continuation: output
            """)
        #expect(transcript.comments == ["A comment line."])
        #expect(transcript.exchanges == [
            .init(lineNumber: 2, command: "add <<END", continuation: ["body", "", "END"], expectedOutput: ["added #1"]),
            .init(lineNumber: 7, command: "", continuation: [], expectedOutput: []),
            .init(lineNumber: 8, command: "list", continuation: ["not a continuation: output"], expectedOutput: []),
        ])
        #expect(transcript.lines.first == "A comment line.")
        #expect(transcript.lines[3] == "...> ")
    }

    @Test func replayFillsInWhatEachCommandPrints() throws {
        let written = Transcript(parsing: "memo> add one\nwrong\nmemo> nope\nmemo> count\n")
        let replayed = try TranscriptTester.replay(written)
        #expect(replayed.exchanges.map(\.expectedOutput) == [["added #1"], ["error: unknown command 'nope' (try 'help')"], ["1"]])
    }

    @Test func unifiedDiffLikeDiffU() {
        let old = ["a", "b", "c", "d", "e", "f", "g", "h", "i"]
        var new = old
        new[1] = "B"
        new.append("j")
        #expect(UnifiedDiff.diff(old, new, oldName: "old", newName: "new", context: 1) == """
            --- old
            +++ new
            @@ -1,3 +1,3 @@
             a
            -b
            +B
             c
            @@ -9,1 +9,2 @@
             i
            +j

            """)
        #expect(UnifiedDiff.diff(old, old, oldName: "old", newName: "new") == "")
    }
}
