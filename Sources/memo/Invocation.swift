import MemoNotebook
import MemoStore

/// The program's command line: global options, then an optional command and its arguments.
struct Invocation {
    enum StoreChoice: Equatable {
        case defaultPath
        case path(String)
        case memory
    }

    enum Action: Equatable {
        /// A one-shot command: its name and arguments, still unparsed.
        case command([String])
        /// No command: read commands from standard input (the REPL on a terminal).
        case session
        case help
        case version
    }

    var store = StoreChoice.defaultPath
    var json = false
    var color = true
    var action = Action.session

    static let usage = """
        usage: memo [--store PATH | --in-memory] [--json] [--no-color] [COMMAND [ARGS]]
               memo --help | -h, memo help COMMAND, memo --version

        Without a command, memo reads commands from standard input: the REPL on a terminal.

        options:
          --store PATH   Use the store at PATH (default: $MEMO_STORE, else
                         $XDG_DATA_HOME/memo/memo.sqlite, else ~/.local/share/memo/memo.sqlite).
          --in-memory    Use a private store that vanishes at exit.
          --json         Print JSON: memos as JSON Lines, other results as one object.
          --no-color     Never colour the output.
          --help, -h     Show this help.
          --version      Show memo's version.

        """

    /// Reads global options up to the first word that is not one.
    init(arguments: [String]) throws(CommandError) {
        var remaining = arguments[...]
        var storeGiven = false
        while let argument = remaining.first, argument.hasPrefix("-") {
            remaining.removeFirst()
            let (name, inlineValue) = Self.split(argument)
            switch name {
            case "--store":
                guard let path = inlineValue ?? remaining.popFirst(), !path.isEmpty else {
                    throw .usage("option '--store' needs a path")
                }
                if storeGiven { throw .usage("give one of '--store' and '--in-memory', once") }
                store = .path(path)
                storeGiven = true
            case "--in-memory":
                if storeGiven { throw .usage("give one of '--store' and '--in-memory', once") }
                store = .memory
                storeGiven = true
            case "--json": json = true
            case "--no-color": color = false
            case "--help", "-h": action = .help
            case "--version": action = .version
            default: throw .usage("unknown option '\(argument)' (see 'memo --help')")
            }
            if inlineValue != nil, name != "--store" {
                throw .usage("option '\(name)' takes no value")
            }
        }
        if action == .session, !remaining.isEmpty {
            action = .command(Array(remaining))
        }
    }

    private static func split(_ argument: String) -> (String, String?) {
        guard argument.hasPrefix("--"), let equals = argument.firstIndex(of: "=") else { return (argument, nil) }
        return (String(argument[..<equals]), String(argument[argument.index(after: equals)...]))
    }
}
