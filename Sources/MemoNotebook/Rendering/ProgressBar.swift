/// A progress line for long work (an import, a sync through ssh) on a terminal's standard
/// error: it appears only once the work has taken more than half a second, redraws at most
/// ten times a second, and clears its line when the work ends. An interrupted import's line
/// is kept and ended instead, so the terminal's `^C` stays where it was typed and what memo
/// says next starts a line of its own.
package final class ProgressBar {
    private let output: OutputSink
    /// When the work being shown began: at its first update.
    private var started: ContinuousClock.Instant?
    private var lastDrawn: ContinuousClock.Instant?
    private static let delay = Duration.milliseconds(500)
    private static let interval = Duration.milliseconds(100)
    private static let width = 30

    /// - Parameter output: a terminal (standard error); a pipe would only collect noise.
    package init(output: OutputSink) {
        self.output = output
    }

    /// Shows `status` (made only when it is drawn) in place of the line shown before.
    package func update(_ status: @autoclosure () -> String) {
        let now = ContinuousClock.now
        let started = self.started ?? now
        self.started = started
        guard now - started > Self.delay, lastDrawn.map({ now - $0 > Self.interval }) ?? true else { return }
        lastDrawn = now
        output.write("\r" + status() + "\u{1B}[K")
        output.flush()
    }

    /// An import's line: a bar when the share of the input read is known, and the records.
    package func update(importedRecords records: Int, fraction: Double?) {
        update(
            {
                var line = "importing "
                if let fraction {
                    let filled = Int((fraction * Double(Self.width)).rounded(.down))
                    line +=
                        "[" + String(repeating: "#", count: filled) + String(repeating: " ", count: Self.width - filled)
                        + "] "
                        + String(Int((fraction * 100).rounded(.down))) + "% "
                }
                return line + "\(records) records"
            }())
    }

    /// Ends the work's line, however the work ended; `interrupted` when Ctrl-C ended it.
    package func finish(interrupted: Bool) {
        defer { started = nil; lastDrawn = nil }
        if interrupted {
            output.write("\n")
            output.flush()
            return
        }
        guard lastDrawn != nil else { return }
        output.write("\r\u{1B}[K")
        output.flush()
    }
}
