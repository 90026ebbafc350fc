/// A REPL session on paper: `memo> ` lines are commands, `...> ` lines right after one
/// continue its heredoc, and the lines up to the next command are its expected output.
/// Lines before the first command are comments.
///
/// An output line that would read as a prompt (a memo whose text starts with `memo> `) is
/// written with a `\` before it, and so is one that starts with `\`; reading removes it.
package struct Transcript: Equatable {
    package static let prompt = "memo> "
    package static let continuationPrompt = "...> "

    /// One command and what it should print.
    package struct Exchange: Equatable {
        /// The line of the file the command is on, from 1.
        package var lineNumber: Int
        package var command: String
        package var continuation: [String]
        package var expectedOutput: [String]
    }

    package var comments: [String]
    package var exchanges: [Exchange]

    package init(parsing text: String) {
        let lines = TextFile.lines(of: text)
        comments = []
        exchanges = []
        for (index, line) in lines.enumerated() {
            if let command = Self.strip(Self.prompt, from: line) {
                exchanges.append(
                    Exchange(lineNumber: index + 1, command: command, continuation: [], expectedOutput: []))
            } else if var exchange = exchanges.popLast() {
                if exchange.expectedOutput.isEmpty, let continued = Self.strip(Self.continuationPrompt, from: line) {
                    exchange.continuation.append(continued)
                } else {
                    exchange.expectedOutput.append(Self.unescaped(line))
                }
                exchanges.append(exchange)
            } else {
                comments.append(line)
            }
        }
    }

    /// The transcript as lines of text.
    package var lines: [String] {
        comments
            + exchanges.flatMap { exchange in
                [Self.prompt + exchange.command]
                    + exchange.continuation.map { Self.continuationPrompt + $0 }
                    + exchange.expectedOutput.map(Self.escaped)
            }
    }

    /// An output line as written in the file: with a `\` before it if it would otherwise
    /// read as a prompt or start with `\`.
    static func escaped(_ line: String) -> String {
        let readsAsPrompt = [prompt, continuationPrompt].contains {
            line.hasPrefix($0) || line == String($0.dropLast())
        }
        return readsAsPrompt || line.hasPrefix("\\") ? "\\" + line : line
    }

    private static func unescaped(_ line: String) -> String {
        line.hasPrefix("\\") ? String(line.dropFirst()) : line
    }

    /// `line` without `prompt`; a prompt whose trailing space an editor removed still counts.
    private static func strip(_ prompt: String, from line: String) -> String? {
        if line.hasPrefix(prompt) { return String(line.dropFirst(prompt.count)) }
        if line == String(prompt.dropLast()) { return "" }
        return nil
    }
}

/// Output written into a transcript: each line escaped as `Transcript` writes expected output,
/// so `memo run --echo x.memo > x.transcript` gives a transcript that reads back the same.
final class TranscriptOutput: OutputSink {
    private let destination: OutputSink
    private var partialLine = ""

    init(_ destination: OutputSink) {
        self.destination = destination
    }

    func write(_ text: String) {
        partialLine += text
        guard let lastBreak = partialLine.unicodeScalars.lastIndex(of: "\n") else { return }
        let complete = partialLine.unicodeScalars[...lastBreak]
        partialLine = String(partialLine.unicodeScalars[partialLine.unicodeScalars.index(after: lastBreak)...])
        for line in TextFile.lines(of: String(complete)) {
            destination.write(Transcript.escaped(line) + "\n")
        }
    }

    func flush() {
        if !partialLine.isEmpty {
            destination.write(Transcript.escaped(partialLine))
            partialLine = ""
        }
        destination.flush()
    }
}
