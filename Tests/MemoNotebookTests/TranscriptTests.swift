import Testing

@testable import MemoNotebook

@Suite("Transcripts and diffs")
struct TranscriptTests {
    @Test func parsesCommandsContinuationsAndOutput() {
        let transcript = Transcript(
            parsing: """
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
        #expect(
            transcript.exchanges == [
                .init(
                    lineNumber: 2, command: "add <<END", continuation: ["body", "", "END"], expectedOutput: ["added #1"]
                ),
                .init(lineNumber: 7, command: "", continuation: [], expectedOutput: []),
                .init(lineNumber: 8, command: "list", continuation: ["not a continuation: output"], expectedOutput: [])
            ])
        #expect(transcript.lines.first == "A comment line.")
        #expect(transcript.lines[3] == "...> ")
    }

    @Test func replayFillsInWhatEachCommandPrints() throws {
        let written = Transcript(parsing: "memo> add one\nwrong\nmemo> nope\nmemo> count\n")
        let replayed = try TranscriptTester.replay(written)
        #expect(
            replayed.exchanges.map(\.expectedOutput) == [
                ["added #1"], ["error: unknown command 'nope' (try 'help')"], ["1"]
            ])
    }

    /// CRLF line ends and a byte-order mark are read as every other file memo reads is.
    @Test func crlfAndByteOrderMarkAreReadLikeOtherFiles() {
        let transcript = Transcript(parsing: "\u{FEFF}comment\r\nmemo> add one\r\nadded #1\r\nmemo> count\r\n1\r\n")
        #expect(transcript.comments == ["comment"])
        #expect(transcript.exchanges.map(\.command) == ["add one", "count"])
        #expect(transcript.exchanges.map(\.expectedOutput) == [["added #1"], ["1"]])
    }

    /// A session ends at `quit`: the commands after it are not run, so a transcript that
    /// lists them does not pass.
    @Test func quitEndsTheTranscript() throws {
        let written = Transcript(parsing: "memo> add one\nadded #1\nmemo> quit\nmemo> add two\nadded #2\n")
        let replayed = try TranscriptTester.replay(written)
        #expect(replayed.exchanges.map(\.command) == ["add one", "quit"])
    }

    /// Output lines that would read as prompts are escaped when written and unescaped when
    /// read, so a memo whose text starts with `memo> ` round-trips.
    @Test func outputThatLooksLikeAPromptRoundTrips() throws {
        let written = Transcript(
            parsing: "memo> add <<END\n...> memo> hi\n...> ...> there\n...> \\back\n...> END\nmemo> show 1\n")
        let replayed = try TranscriptTester.replay(written)
        let text = replayed.lines.joined(separator: "\n")
        #expect(text.contains("\n\\memo> hi\n\\...> there\n\\\\back"))
        let reread = Transcript(parsing: text)
        #expect(reread.lines == replayed.lines)
        #expect(try TranscriptTester.replay(reread) == reread)
    }

    @Test func unifiedDiffLikeDiffU() {
        let old = ["a", "b", "c", "d", "e", "f", "g", "h", "i"]
        var new = old
        new[1] = "B"
        new.append("j")
        #expect(
            UnifiedDiff.diff(old, new, oldName: "old", newName: "new", context: 1) == """
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

    /// Two long transcripts that differ in a few lines far apart: a hunk for each change,
    /// however long the lines between (a table of every pair of lines would have held 25
    /// million cells).
    @Test func aFewChangesInLongTranscriptsAreAHunkEach() {
        let old = (0..<5_000).map { "line \($0)" }
        var new = old
        new[100] = "changed 100"
        new.remove(at: 2_500)
        new.insert("inserted", at: 4_900)
        let diff = UnifiedDiff.diff(old, new, oldName: "old", newName: "new", context: 1)
        #expect(
            diff == """
                --- old
                +++ new
                @@ -100,3 +100,3 @@
                 line 99
                -line 100
                +changed 100
                 line 101
                @@ -2500,3 +2500,2 @@
                 line 2499
                -line 2500
                 line 2501
                @@ -4901,2 +4900,3 @@
                 line 4900
                +inserted
                 line 4901

                """)
    }

    /// Texts with nothing in common between their first and last lines (a runaway
    /// transcript): one hunk of removed then added lines.
    @Test func aHugeDifferenceIsRemovedThenAdded() {
        let old = ["same"] + (0..<3_000).map { "old \($0)" } + ["end"]
        let new = ["same"] + (0..<2_000).map { "new \($0)" } + ["end"]
        let diff = UnifiedDiff.diff(old, new, oldName: "old", newName: "new", context: 1)
        let lines = diff.split(separator: "\n", omittingEmptySubsequences: false)
        #expect(lines[2] == "@@ -1,3002 +1,2002 @@")
        #expect(lines[3] == " same" && lines[4] == "-old 0" && lines[3_004] == "+new 0" && lines[5_004] == " end")
        #expect(lines.count == 5_006)
    }
}
