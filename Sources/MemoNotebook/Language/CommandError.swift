/// A command that cannot run as written: its message quotes the offending word, and its
/// range points at that word in the line so editors can underline it.
package struct CommandError: Error, Equatable, CustomStringConvertible {
    package enum Kind: Equatable, Sendable {
        /// The command is malformed: unknown command or option, missing argument.
        case usage
        /// The command is well formed but an argument's value is wrong, or it cannot run.
        case invalidArgument
    }

    package var kind: Kind
    package var message: String
    package var range: Range<String.Index>?

    package var description: String { message }

    package static func usage(_ message: String, range: Range<String.Index>? = nil) -> CommandError {
        CommandError(kind: .usage, message: message, range: range)
    }

    package static func invalid(_ message: String, range: Range<String.Index>? = nil) -> CommandError {
        CommandError(kind: .invalidArgument, message: message, range: range)
    }

    static func unknownCommand(_ word: Word) -> CommandError {
        .usage("unknown command '\(word.text)' (try 'help')", range: word.range)
    }

    static func unknownOption(_ word: Word, command: String) -> CommandError {
        .usage("unknown option '\(word.text)' for '\(command)'", range: word.range)
    }

    static func missingArgument(_ name: String, command: String, range: Range<String.Index>? = nil) -> CommandError {
        .usage("'\(command)' needs \(name)", range: range)
    }

    static func unexpected(_ word: Word, command: String) -> CommandError {
        .usage("unexpected argument '\(word.text)' for '\(command)'", range: word.range)
    }
}
