import MemoStore

/// An error that happened at a line of a file memo read (a fixture script): it is reported
/// as `FILE:LINE: error: MESSAGE` wherever it surfaces, like the errors of `memo run`.
package struct LocatedError: Error {
    package var file: String
    package var line: Int
    package var underlying: any Error

    package init(file: String, line: Int, underlying: any Error) {
        self.file = file
        self.line = line
        self.underlying = underlying
    }
}

/// The one-line message shown after `error: ` for any error memo reports. Messages quote
/// what the user typed or a file held, so their control characters are made visible: an
/// error stays one line and cannot move the cursor or retitle the terminal.
package func errorMessage(_ error: any Error) -> String {
    let message =
        switch error {
        case let error as LocatedError: errorMessage(error.underlying)
        case let error as CommandError: error.message
        case let error as StoreError: error.description
        default: "\(error)"
        }
    return TerminalText.row(message)
}

/// The line that reports `error`: `FILE:LINE: error: MESSAGE` when it happened in a file
/// (the error's own place first, else `file` and `line`; `FILE: error: MESSAGE` for a whole
/// file), else `error: MESSAGE`.
package func errorReport(_ error: any Error, file: String? = nil, line: Int? = nil) -> String {
    if let located = error as? LocatedError {
        // Line 0: the error is the whole file's (a note that cannot be read), not one line's.
        let place = located.line > 0 ? "\(located.file):\(located.line)" : located.file
        return "\(place): error: \(errorMessage(located.underlying))"
    }
    if let file, let line { return "\(file):\(line): error: \(errorMessage(error))" }
    return "error: \(errorMessage(error))"
}
