/// Rows of earlier drawings of the line being typed that the terminal pushed into its
/// history, just above the line. A terminal that re-wraps its lines on a resize (tmux, VTE,
/// kitty, iTerm2) keeps the cursor's row on the screen, so a line that starts near the top and
/// takes more rows in a narrower window loses its first rows to the history, out of the
/// cursor's reach: the redraw shows the whole line again below them. Widening the window
/// later brings them back above the line, where the next redraw reaches and clears them.
struct LeftBehindRows {
    /// The display width of each piece left behind, the top one first; the terminal re-wraps
    /// each on its own.
    private var pieces: [Int] = []

    /// How many rows the pieces take in a window `width` columns wide.
    func count(inWidth width: Int) -> Int {
        pieces.reduce(0) { $0 + Self.rows(of: $1, inWidth: width) }
    }

    /// After a redraw that cleared all but the top `unreached` of the rows above the cursor:
    /// the pieces' rows first, then the line's own full rows. What was not reached stays.
    mutating func keep(top unreached: Int, inWidth width: Int) {
        var left = unreached
        var kept: [Int] = []
        for piece in pieces where left > 0 {
            let rows = Self.rows(of: piece, inWidth: width)
            kept.append(left >= rows ? piece : left * width)
            left -= min(left, rows)
        }
        if left > 0 { kept.append(left * width) }
        pieces = kept
    }

    /// A new line, or one drawn below something else: nothing of it is above.
    mutating func forget() {
        pieces = []
    }

    private static func rows(of columns: Int, inWidth width: Int) -> Int {
        max(1, (columns + width - 1) / width)
    }
}
