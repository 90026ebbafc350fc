import MemoNotebook

/// The program's own documentation, written once: `memo --help` prints it, the manual page
/// (`ManualPage`) is made from it, and shell completion offers its options and commands.
/// The command language's documentation is the `CommandSyntax` table.
enum ProgramHelp {
    /// A name and what it means: an environment variable, a file, an exit status.
    struct Entry {
        var term: String
        var meaning: String
    }

    static let summary = "a notebook of short text memos for the terminal"

    /// The forms of the command line, without the program's name: the program's commands'
    /// from the `CommandSyntax` table.
    static let synopsis =
        [
            "[--store PATH | --in-memory] [--fixture NAME|FILE]... [--json] [--no-color] [--no-pager] [COMMAND [ARGS]]"
        ] + modes.map { "\($0.name) \($0.usage)" } + [
            "sync [--store PATH | --in-memory] [--json] PATH|[USER@]HOST:PATH|ssh://[USER@]HOST[:PORT]/PATH [--remote-memo PROGRAM] [--allow-plaintext]",
            "sync --serve PATH      (the remote half of a sync through ssh: serves the store at PATH on standard input and output)",
            "fixtures | memo --help | memo help COMMAND | memo COMMAND --help | memo --version"
        ]

    /// The program's commands that have help of their own (`memo run --help`).
    static let modes = CommandSyntax.offeredProgramCommands.compactMap(CommandSyntax.syntax(of:))

    static let description = """
        Without a command, memo reads commands from standard input: the REPL on a terminal.
        `memo run` replays command files (- is standard input) on an in-memory store with a
        deterministic clock; `memo test` checks REPL transcripts; `memo serve` speaks JSON-RPC 2.0
        with LSP framing on standard input and output, for editors and programs; `memo encrypt`
        seals the store file at rest under a passphrase (libsodium: Argon2id and
        XChaCha20-Poly1305), after which every command works on it as before, and `memo decrypt`
        makes it plain again; `memo completions` prints a completion script for bash, zsh or fish. `add` and `edit` without text take
        standard input when it is not a terminal, else open the editor.
        """

    static let languageIntroduction = """
        The command language is the same in the REPL, in scripts, as one-shot arguments and over
        memo/execute:
        """

    /// What a DATE may be, said once in the manual page (`help COMMAND` says the forms under
    /// each command that reads one).
    static let dates = """
        DATE is \(DateArgument.forms). Words are read in any case, in the display time zone (TZ):
        monday is the latest Monday, today included; last friday the latest Friday before today;
        next friday the first after today; this friday the Friday of this week, Monday to Sunday.
        last/this/next week, month and year are the whole span: --since starts at its first instant,
        --until ends after its last day, --on covers it. Ages (2 days ago, 7d) keep the wall-clock
        time. A time alone is today at that time; after a day, that day at that time. A time that
        summer time skips is read with the offset before the change; one it repeats is the first.
        An option reads the longest run of words that is a date, so a date needs no quotes
        (add --date yesterday 21:30 Called mom); --date=WORD or -- ends it early. A date memo
        cannot read is an error that quotes it; memo never guesses.
        """

    /// Every option of the command line, for `memo --help` and the manual page: the program's,
    /// then each mode's own, marked with its mode.
    static let options =
        programOptions
        + modes.flatMap { mode in
            mode.options.map {
                OptionSyntax(names: $0.names, valueName: $0.valueName, summary: "(\(mode.name)) " + $0.summary)
            }
        } + [help, version]

    /// The options memo takes before any command (and, where their usage names them, after a mode).
    private static let programOptions = [
        OptionSyntax(
            names: ["--store"], valueName: "PATH",
            summary:
                "Use the store at PATH (default: $MEMO_STORE, else $XDG_DATA_HOME/memo/memo.sqlite, else ~/.local/share/memo/memo.sqlite)."
        ),
        OptionSyntax(names: ["--in-memory"], summary: "Use a private store that vanishes at exit."),
        OptionSyntax(
            names: ["--fixture"], valueName: "NAME|FILE",
            summary: "Load a fixture first; without --store, implies --in-memory.",
            isRepeatable: true),
        OptionSyntax(
            names: ["--json"],
            summary:
                "Print JSON: memos as JSON Lines, other results as one object (also after the command, as --no-color and --no-pager)."
        ),
        OptionSyntax(names: ["--no-color"], summary: "Never colour the output."),
        OptionSyntax(
            names: ["--no-pager"],
            summary:
                "Never page one-shot output (on a terminal, output longer than the screen goes through $MEMO_PAGER, else $PAGER, else less -FRX)."
        )
    ]
    private static let help = OptionSyntax(
        names: ["--help", "-h"], summary: "Show this help; after a command, that command's help.")
    private static let version = OptionSyntax(names: ["--version"], summary: "Show memo's version.")

    /// A mode's options: the program's that its usage names, its own, and `--help`.
    static func options(for mode: CommandSyntax) -> [OptionSyntax] {
        programOptions.filter { mode.usage.contains($0.name) } + mode.options
            + [OptionSyntax(names: help.names, summary: "Show this help.")]
    }

    /// What `memo run --help` and the other modes print: their usage, what they do, their options.
    static func text(for mode: CommandSyntax) -> String {
        "usage: memo \(mode.name) \(mode.usage)\n\n\(mode.summary)\n"
            + section("options", options(for: mode).map { Entry(term: $0.spelling, meaning: $0.summary) })
    }

    static let environment = [
        Entry(term: "MEMO_STORE", meaning: "The store to use when --store is not given."),
        Entry(
            term: "MEMO_PASSPHRASE_COMMAND",
            meaning:
                "A command (run by /bin/sh) whose first output line is an encrypted store's passphrase, as pass show memo; "
                + "else memo asks on the terminal, and scripts and the server cannot open one."),
        Entry(
            term: "MEMO_NEW_PASSPHRASE_COMMAND",
            meaning: "The same for the new passphrase of encrypt --change-passphrase (else the terminal is asked)."),
        Entry(term: "XDG_DATA_HOME", meaning: "Holds memo/memo.sqlite, the default store (else ~/.local/share)."),
        Entry(term: "XDG_STATE_HOME", meaning: "Holds memo/history, the REPL's history (else ~/.local/state)."),
        Entry(
            term: "XDG_CONFIG_HOME",
            meaning: "Holds memo/templates, the templates of add --template and today (else ~/.config)."),
        Entry(term: "HOME", meaning: "The home folder: the default places, and ~ in paths."),
        Entry(
            term: "VISUAL, EDITOR",
            meaning: "The editor for add and edit without text, add --template and today (else vi)."),
        Entry(
            term: "MEMO_PAGER, PAGER",
            meaning: "The pager for long output on a terminal (else less -FRX); cat turns paging off."),
        Entry(term: "NO_COLOR", meaning: "When set and not empty, output is never coloured; so too with TERM=dumb."),
        Entry(term: "COLUMNS", meaning: "The width to fit listings to when the terminal does not say."),
        Entry(term: "TZ", meaning: "The display time zone (else the system's); scripts always use UTC."),
        Entry(
            term: "MEMO_SSH",
            meaning: "The ssh command line for sync HOST:PATH, run by /bin/sh so it may hold options (else ssh)."),
        Entry(
            term: "TMPDIR",
            meaning: "Where the editor's private temporary file goes (else /tmp); never for an encrypted store."),
        Entry(
            term: "XDG_RUNTIME_DIR",
            meaning: "Holds an encrypted store's temporary files, in a private memo-PID-XXXXXX folder (else /dev/shm).")
    ]

    static let files = [
        Entry(
            term: "~/.local/share/memo/memo.sqlite",
            meaning: "The default store (mode 0600, in folders of mode 0700), with its -wal and -shm files."),
        Entry(
            term: "~/.local/state/memo/history",
            meaning: "The REPL's history: private, at most 1,000 lines; none for an encrypted store."),
        Entry(
            term: "$TMPDIR/memo-XXXXXX.md",
            meaning: "The text being edited for add or edit (mode 0600), removed afterwards.")
    ]

    /// What `memo --help` prints before the list of commands.
    static var text: String {
        var text = "usage: memo " + synopsis[0] + "\n"
        text += synopsis.dropFirst().map { "       memo " + $0 + "\n" }.joined()
        text += "\n" + description + "\n"
        text += section("options", options.map { Entry(term: $0.spelling, meaning: $0.summary) })
        text += section("environment", environment)
        text += section("files", files)
        text += section(
            "exit status", ExitStatus.allCases.map { Entry(term: String($0.rawValue), meaning: $0.meaning) })
        return text
    }

    private static func section(_ title: String, _ entries: [Entry]) -> String {
        let width = entries.map(\.term.count).max() ?? 0
        return "\n\(title):\n"
            + entries.map { entry in
                "  " + entry.term.paddedWithSpaces(toLength: width + 2) + entry.meaning + "\n"
            }.joined()
    }
}
