/// A progress bar for long imports on a terminal's standard error: it appears only once an
/// import has taken more than half a second, redraws at most ten times a second, and
/// clears its line when the import ends. An interrupted import's line is kept and ended
/// instead, so the terminal's `^C` stays where it was typed and what memo says next starts
/// a line of its own.
package final class ProgressBar: ImportProgress {
    private let output: OutputSink
    private let started = ContinuousClock.now
    private var lastDrawn: ContinuousClock.Instant?
    private static let delay = Duration.milliseconds(500)
    private static let interval = Duration.milliseconds(100)
    private static let width = 30

    /// - Parameter output: a terminal (standard error); a pipe would only collect noise.
    package init(output: OutputSink) {
        self.output = output
    }

    package func update(records: Int, fraction: Double?) {
        let now = ContinuousClock.now
        guard now - started > Self.delay, lastDrawn.map({ now - $0 > Self.interval }) ?? true else { return }
        lastDrawn = now
        var line = "\rimporting "
        if let fraction {
            let filled = Int((fraction * Double(Self.width)).rounded(.down))
            line += "[" + String(repeating: "#", count: filled) + String(repeating: " ", count: Self.width - filled) + "] "
                + String(Int((fraction * 100).rounded(.down))) + "% "
        }
        output.write(line + "\(records) records")
        output.flush()
    }

    package func finish(interrupted: Bool) {
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
