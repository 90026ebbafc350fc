/// A REPL session on paper: `memo> ` lines are commands, `...> ` lines right after one
/// continue its heredoc, and the lines up to the next command are its expected output.
/// Lines before the first command are comments.
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
        var lines = text.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
        if lines.last == "" { lines.removeLast() }
        comments = []
        exchanges = []
        for (index, line) in lines.enumerated() {
            if let command = Self.strip(Self.prompt, from: line) {
                exchanges.append(Exchange(lineNumber: index + 1, command: command, continuation: [], expectedOutput: []))
            } else if var exchange = exchanges.popLast() {
                if exchange.expectedOutput.isEmpty, let continued = Self.strip(Self.continuationPrompt, from: line) {
                    exchange.continuation.append(continued)
                } else {
                    exchange.expectedOutput.append(line)
                }
                exchanges.append(exchange)
            } else {
                comments.append(line)
            }
        }
    }

    /// The transcript as lines of text.
    package var lines: [String] {
        comments + exchanges.flatMap { exchange in
            [Self.prompt + exchange.command]
                + exchange.continuation.map { Self.continuationPrompt + $0 }
                + exchange.expectedOutput
        }
    }

    /// `line` without `prompt`; a prompt whose trailing space an editor removed still counts.
    private static func strip(_ prompt: String, from line: String) -> String? {
        if line.hasPrefix(prompt) { return String(line.dropFirst(prompt.count)) }
        if line == String(prompt.dropLast()) { return "" }
        return nil
    }
}
