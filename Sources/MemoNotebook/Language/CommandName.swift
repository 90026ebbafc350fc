/// The commands of the language by name, so that dispatching on a misspelt one does not
/// compile. Each has exactly one entry in the `CommandSyntax` table, which holds its aliases.
package enum CommandName: String, CaseIterable, Sendable {
    case add, list, search, show, edit, delete, tag, untag, tags, count, graph, links
    case begin, save, rollback, undo, redo, history, sync
    case `import`, export, fixture, fixtures, clock, info, help, quit
    case today
    case pick
    case calendar, stats
}

/// The program's own commands, given first on memo's command line and nowhere else: the
/// language does not know them. `memo --help` documents them.
package enum ProgramCommandName: String, CaseIterable, Sendable {
    case run, test, serve
    /// `memo encrypt`, `memo decrypt`: seal the store file at rest, or make it plain again.
    case encrypt, decrypt
    case completions
    /// `memo __complete LINE`: what the completion scripts ask for on Tab.
    case complete = "__complete"
    /// `memo __manual`: the manual page, for `scripts/install`.
    case manual = "__manual"

    /// Whether completion offers it: the two the scripts call are left out.
    package var isOffered: Bool {
        switch self {
        case .run, .test, .serve, .completions, .encrypt, .decrypt: true
        case .complete, .manual: false
        }
    }
}

/// Which command a `CommandSyntax` entry describes: one of the language, or one of the program.
package enum CommandKind: Equatable, Sendable {
    case language(CommandName)
    case program(ProgramCommandName)

    package var name: String {
        switch self {
        case .language(let name): name.rawValue
        case .program(let name): name.rawValue
        }
    }

    package var languageCommand: CommandName? {
        if case .language(let name) = self { name } else { nil }
    }

    package var programCommand: ProgramCommandName? {
        if case .program(let name) = self { name } else { nil }
    }
}
