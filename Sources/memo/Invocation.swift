import MemoNotebook

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
        /// `memo run`: replay command files.
        case run(files: [String], echo: Bool, keepGoing: Bool)
        /// `memo test`: check transcripts.
        case test(files: [String], update: Bool)
        /// `memo serve`: JSON-RPC with LSP framing on standard input and output.
        case serve
        /// `memo encrypt`: seal the store file; with `--change-passphrase`, seal it again.
        case encrypt(changingPassphrase: Bool)
        /// `memo decrypt`: make a sealed store file plain again.
        case decrypt
        /// `memo sync --serve PATH`: the remote half of a sync through ssh.
        case serveSync(path: String)
        /// The program's help, or that of one of its commands (`memo run --help`).
        case help(ProgramCommandName?)
        case version
        /// `memo completions SHELL`: print the completion script for that shell.
        case completionScript(Shell)
        /// `memo __complete LINE`, hidden: the completions the shell scripts ask for.
        case complete(line: String)
        /// `memo __manual`, hidden: the manual page in roff, for `scripts/install`.
        case manual
    }

    /// The store asked for, or nil to use the face's default.
    var requestedStore: StoreChoice?
    var fixtures: [String] = []
    var json = false
    var color = true
    /// Whether long one-shot output on a terminal may go through a pager.
    var pager = true
    var action = Action.session
    /// `--help` or `-h` among the program's options or those of `run`, `test` or `serve`:
    /// the usage is shown instead of running anything.
    private var helpRequested = false

    init(arguments: [String]) throws(CommandError) {
        var words = arguments[...]
        var requested = Action.session
        try readOptions(&words) { name throws(CommandError) in
            guard name == "--version" else { return false }
            requested = .version
            return true
        }
        action = helpRequested ? .help(nil) : requested
        guard action == .session, let first = words.first else { return }
        let programCommand = CommandSyntax.programCommand(named: first)
        defer { if helpRequested { action = .help(programCommand) } }
        switch programCommand {
        case .run:
            words.removeFirst()
            var echo = false, keepGoing = false
            let files = try readOptions(&words, collectingArguments: true) { name throws(CommandError) in
                switch name {
                case "--echo": echo = true
                case "--keep-going": keepGoing = true
                default: return false
                }
                return true
            }
            guard !files.isEmpty || helpRequested else {
                throw .usage("'memo run' needs at least one FILE (- for standard input)")
            }
            action = .run(files: files, echo: echo, keepGoing: keepGoing)
        case .test:
            words.removeFirst()
            var update = false
            let files = try readOptions(&words, storeOptions: false, collectingArguments: true) {
                name throws(CommandError) in
                guard name == "--update" else { return false }
                update = true
                return true
            }
            guard !files.isEmpty || helpRequested else {
                throw .usage("'memo test' needs at least one transcript FILE")
            }
            action = .test(files: files, update: update)
        case .completions:
            words.removeFirst()
            let names = try readOptions(&words, storeOptions: false, collectingArguments: true) {
                _ throws(CommandError) in false
            }
            guard names.count == 1, let shell = Shell(rawValue: names[0]) else {
                if helpRequested { break }
                throw .usage("'memo completions' needs one of bash, zsh or fish")
            }
            action = .completionScript(shell)
        case .complete:
            action = .complete(line: words.dropFirst().joined(separator: " "))
        case .manual:
            action = .manual
        case .serve:
            words.removeFirst()
            let extra = try readOptions(&words, collectingArguments: true) { _ throws(CommandError) in false }
            if let word = extra.first { throw .usage("unexpected argument '\(word)' for 'memo serve'") }
            action = .serve
        case .encrypt:
            words.removeFirst()
            var changingPassphrase = false
            let extra = try readOptions(&words, collectingArguments: true) { name throws(CommandError) in
                guard name == "--change-passphrase" else { return false }
                changingPassphrase = true
                return true
            }
            if let word = extra.first { throw .usage("unexpected argument '\(word)' for 'memo encrypt'") }
            try requireStoreFile(for: "encrypt")
            action = .encrypt(changingPassphrase: changingPassphrase)
        case .decrypt:
            words.removeFirst()
            let extra = try readOptions(&words, collectingArguments: true) { _ throws(CommandError) in false }
            if let word = extra.first { throw .usage("unexpected argument '\(word)' for 'memo decrypt'") }
            try requireStoreFile(for: "decrypt")
            action = .decrypt
        case nil where words.first == "sync" && words.dropFirst().first == "--serve":
            // Only that store: no other store option, nothing after its path.
            let rest = words.dropFirst(2)
            guard rest.count == 1, let path = rest.first, !path.isEmpty, requestedStore == nil, fixtures.isEmpty else {
                throw .usage("usage: memo sync --serve PATH (and no store options: it serves the store at PATH)")
            }
            action = .serveSync(path: path)
        case nil:
            action = .command(takingOutputFlags(from: Array(words)))
        }
    }

    /// The command's words without the flags that only shape the output (`--json`,
    /// `--no-pager`, `--no-color`), which may also follow the command, anywhere before `--`,
    /// as its own options may: `memo list --json`. The store options come before the command.
    private mutating func takingOutputFlags(from words: [String]) -> [String] {
        guard let name = words.first, let syntax = CommandSyntax.named(name) else { return words }
        var kept = [name]
        var rest = words.dropFirst()
        while let word = rest.popFirst() {
            switch word {
            case "--": return kept + [word] + rest
            case "--json": json = true
            case "--no-pager": pager = false
            case "--no-color": color = false
            default:
                kept.append(word)
                // An option's value is never a flag: `--tag --json` is refused as a tag.
                if let (option, inlineValue) = syntax.option(spelledBy: word), option.valueName != nil,
                    inlineValue == nil,
                    let value = rest.popFirst()
                {
                    kept.append(value)
                }
            }
        }
        return kept
    }

    /// The store to open: the one asked for, else in memory for scripts and fixtures,
    /// else the default store.
    var store: StoreChoice {
        if let requestedStore { return requestedStore }
        if case .run = action { return .memory }
        return fixtures.isEmpty ? .defaultPath : .memory
    }

    /// Reads options from the front of `words`: the store and output options everywhere
    /// (unless `storeOptions` is false), and those `extra` accepts. With
    /// `collectingArguments`, other words are collected and returned (`--` ends the
    /// options); without, reading stops at the first word that is not an option.
    @discardableResult
    private mutating func readOptions(
        _ words: inout ArraySlice<String>, storeOptions: Bool = true, collectingArguments: Bool = false,
        _ extra: (String) throws(CommandError) -> Bool
    ) throws(CommandError) -> [String] {
        var arguments: [String] = []
        var optionsEnded = false
        while let word = words.first {
            guard !optionsEnded, word.hasPrefix("-"), word != "-" else {
                guard collectingArguments else { break }
                arguments.append(words.removeFirst())
                continue
            }
            words.removeFirst()
            if word == "--" && collectingArguments {
                optionsEnded = true
                continue
            }
            let (name, inlineValue) = Self.split(word)
            let takesValue = storeOptions && (name == "--store" || name == "--fixture")
            if inlineValue != nil && !takesValue { throw .usage("option '\(name)' takes no value") }
            if takesValue {
                guard let value = inlineValue ?? words.popFirst(), !value.isEmpty else {
                    throw .usage("option '\(name)' needs a value")
                }
                if name == "--fixture" {
                    fixtures.append(value)
                } else {
                    try chooseStore(.path(value))
                }
                continue
            }
            switch name {
            case "--help", "-h": helpRequested = true
            case "--in-memory" where storeOptions: try chooseStore(.memory)
            case "--json" where storeOptions: json = true
            case "--no-color" where storeOptions: color = false
            case "--no-pager" where storeOptions: pager = false
            default:
                guard try extra(name) else { throw .usage("unknown option '\(word)' (see 'memo --help')") }
            }
        }
        return arguments
    }

    /// `encrypt` and `decrypt` change a store file: one in memory, or fixtures, make no sense.
    private func requireStoreFile(for command: String) throws(CommandError) {
        if requestedStore == .memory || !fixtures.isEmpty {
            throw .usage("'memo \(command)' works on a store file: --in-memory and --fixture are not for it")
        }
    }

    private mutating func chooseStore(_ choice: StoreChoice) throws(CommandError) {
        if requestedStore != nil { throw .usage("give one of '--store' and '--in-memory', once") }
        requestedStore = choice
    }

    private static func split(_ argument: String) -> (String, String?) {
        guard argument.hasPrefix("--"), let equals = argument.firstIndex(of: "=") else { return (argument, nil) }
        return (String(argument[..<equals]), String(argument[argument.index(after: equals)...]))
    }
}
