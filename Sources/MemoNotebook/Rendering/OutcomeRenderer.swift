import MemoStore

/// Writes outcomes for people (`TextRenderer`) or programs (`JSONRenderer`).
package protocol OutcomeRenderer {
    /// Writes `outcome`; a listing is read from its cursor as it is written.
    func render(_ outcome: Outcome, to output: OutputSink) throws(StoreError)
}

extension OutcomeRenderer {
    /// Streams a cursor's memos through `line`, one at a time, until `output` breaks.
    func forEach(
        in cursor: MemoCursor, to output: OutputSink, _ line: (Memo) throws(StoreError) -> Void
    ) throws(StoreError) {
        while !output.isBroken, let memo = try cursor.next() { try line(memo) }
    }

    /// `forEach` on rows read in place, for outputs that can copy their bytes.
    func forEachRow(
        in cursor: MemoCursor, to output: OutputSink, _ line: (MemoRow) throws(StoreError) -> Void
    ) throws(StoreError) {
        while !output.isBroken, let row = try cursor.nextRow() { try line(row) }
    }

    /// Writes an export to standard output in its own format, whichever renderer runs.
    func export(_ cursor: MemoCursor, with writer: any MemoWriter, to output: OutputSink) throws(StoreError) {
        var writer = writer
        writer.begin(to: output)
        try forEachRow(in: cursor, to: output) { writer.write($0, to: output) }
        writer.end(to: output)
    }
}

/// How text output looks on this face.
package struct TextStyle: Sendable {
    /// Columns a listed memo may take; nil for no limit (output to a pipe).
    package var width: Int?
    /// ANSI colours, for terminals.
    package var color: Bool
    package var displayTime: DisplayTime

    package init(width: Int?, color: Bool, displayTime: DisplayTime) {
        self.width = width
        self.color = color
        self.displayTime = displayTime
    }
}
