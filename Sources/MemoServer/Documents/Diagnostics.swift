import MemoNotebook

/// Diagnostics for a command file: every line the command parser rejects, with the range
/// of the offending word, exactly as the REPL would reject it, and every `--date` the
/// notebook would refuse on its clock and time zone (one outside the years memo keeps).
/// Heredoc bodies are text, not commands; a heredoc that never ends is reported where it starts.
enum Diagnostics {
    static func of(_ document: TextDocument, encoding: PositionEncoding, notebook: Notebook) -> [JSONValue] {
        var diagnostics: [JSONValue] = []
        var openHeredoc: (opener: HeredocOpener, line: Int)?
        for number in 0..<document.lineCount {
            guard let line = document.line(number) else { continue }
            if let heredoc = openHeredoc {
                if heredoc.opener.isClosed(by: line) { openHeredoc = nil }
                continue
            }
            do {
                var parsed = try CommandParser.parse(line: line)
                if case .needsHeredoc(let opener) = parsed {
                    openHeredoc = (opener, number)
                    parsed = try CommandParser.parse(line: line, heredoc: "")
                }
                if case .command(let command) = parsed { try notebook.checkDates(of: command) }
            } catch {
                diagnostics.append(
                    diagnostic(
                        error.message, line: number, range: error.range ?? content(of: line),
                        text: line, encoding: encoding))
            }
        }
        if let heredoc = openHeredoc, let line = document.line(heredoc.line) {
            diagnostics.append(
                diagnostic(
                    "the heredoc never ends: no line '\(heredoc.opener.delimiter)' follows",
                    line: heredoc.line, range: content(of: line), text: line, encoding: encoding))
        }
        return diagnostics
    }

    private static func diagnostic(
        _ message: String, line: Int, range: Range<String.Index>, text: String,
        encoding: PositionEncoding
    ) -> JSONValue {
        .object([
            ("range", encoding.range(line: line, range, in: text)),
            ("severity", .integer(1)),
            ("source", .string("memo")),
            ("message", .string(message))
        ])
    }

    /// The line without its leading and trailing white space.
    private static func content(of line: String) -> Range<String.Index> {
        let start = line.firstIndex { !$0.isWhitespace } ?? line.endIndex
        let end = line.lastIndex { !$0.isWhitespace }.map(line.index(after:)) ?? start
        return start..<max(start, end)
    }
}
