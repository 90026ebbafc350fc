import MemoStore

/// A parsed command, ready to run against a `Notebook`.
package enum Command: Equatable, Sendable {
    /// A new memo; a nil text is left for the session to get (`Notebook.missingText`). A
    /// `date` back-dates it (docs/REFERENCE.md, Back-dating).
    case add(text: String?, tags: [String], date: DateArgument? = nil)
    case list(ListArguments)
    /// Memos named by id here or by a stable form (`memo:HANDLE`, `memo:UUID`), which the
    /// notebook resolves as the command runs (`Notebook.memoID(_:)`); so for every command
    /// the command line names memos in.
    case show(ids: [MemoReference])
    /// A memo's new text; nil, as for `add`, when the command gave none. A `date` moves the
    /// memo there too, in the same change; with it, no text is a move alone.
    case edit(id: MemoReference, text: String?, date: DateArgument? = nil)
    /// A memo's new text, its whole explicit tag set, or both, in one change: the server's
    /// `memo/update`, which the command language does not spell.
    case update(id: Int64, content: String?, tags: [String]?, date: DateArgument? = nil)
    /// A memo's new text, only while the memo is still the version `base` (none known: never):
    /// the server's save of a memo's own file, which the command language does not spell.
    case editIfStill(id: Int64, text: String, base: MemoFileBase?)
    /// Takes back this session's change `change` for a step that then did not happen: the
    /// server's answer to a move whose edit the editor refused, which the command language
    /// does not spell. Undone in the store and gone from the session's undo and redo.
    case withdraw(change: Int64)
    case delete(ids: [MemoReference])
    case tag(id: MemoReference, tags: [String])
    case untag(id: MemoReference, tags: [String])
    case tags
    case count(FilterArguments)
    /// The link graph of the memos the filters select (docs/REFERENCE.md, Links).
    case graph(GraphArguments)
    /// The references of the memos the filters select, or those unlinked (docs/REFERENCE.md,
    /// Links, `memo links`).
    case links(LinksArguments)
    /// Full-text search, newest first.
    case search(SearchArguments)
    case importFile(ImportArguments)
    case export(ExportArguments)
    case begin, save, rollback, undo, redo
    /// `undo --sync`: the store's latest sync, keeping what it brought (`MemoStore.undo(.latestSync:)`).
    case undoSync
    case history(limit: Int?)
    /// Two-way merge with another memo store, here or through ssh (docs/REFERENCE.md, Sync).
    case sync(SyncArguments)
    case info
    case help(topic: String?)
    case quit
    /// Sets the deterministic clock of scripting mode.
    case clock(DateArgument)
    /// Loads a built-in fixture by name, or a fixture script by path.
    case fixture(String)
    /// A fixture `--fixture` loads before the session starts: its starting point, not a change
    /// of the session that `undo` takes back. Resolved already, so a fixture that cannot be
    /// found creates no store file. The command language spells `fixture` only.
    case preload(Fixture)
    case fixtures
    /// `add --template NAME [TITLE]`: a new memo written in the editor, from the template
    /// filled in (docs/REFERENCE.md, Templates).
    case addFromTemplate(TemplateName, title: String, tags: [String])
    /// Today's daily memo in the editor, made on first use (docs/REFERENCE.md, The daily memo).
    case today
    /// `pick`, or `show`/`edit`/`delete`/`tag` with `-i`: the memos a person picks, and what is
    /// done with them (docs/REFERENCE.md, Picking memos).
    case pick(PickRequest)
    /// Several memos in one editor buffer, saved as one change (docs/REFERENCE.md, Editing
    /// several memos at once): `edit` with filters and no id, or memos picked by id.
    case editMany(MemoSelection)
    /// `tag --rename OLD NEW`: the tag renamed on every memo, inline `@OLD` in texts too.
    case renameTag(from: String, to: String)
    /// A year's heatmap of memos a day (docs/REFERENCE.md, Calendar).
    case calendar(CalendarArguments)
    /// Totals, months, tags, streaks and busiest times of the memos the filters select.
    case stats(FilterArguments)

    /// The outcome of a command that needs no store (`help`, `fixtures`, `quit`), or nil:
    /// a one-shot command of these opens none.
    package var outcomeWithoutStore: Outcome? {
        switch self {
        case .help(let topic): .help(topic: topic)
        case .fixtures: .fixtures(Fixture.builtIn)
        case .quit: .quit
        default: nil
        }
    }

    /// Whether the change the command makes goes on the session's undo stack: not for `undo`
    /// and `redo`, which move entries between the stacks themselves, a withdrawal, taken back
    /// for good, or a preloaded fixture, the session's starting point.
    var joinsUndoStack: Bool {
        switch self {
        case .undo, .undoSync, .redo, .withdraw, .preload:
            false
        case .add, .list, .show, .edit, .update, .editIfStill, .delete, .tag, .untag, .tags, .count, .graph, .links,
            .search,
            .importFile, .export, .begin, .save, .rollback, .history, .sync, .info, .help, .quit, .clock, .fixture,
            .fixtures, .addFromTemplate, .today, .pick, .editMany, .renameTag, .calendar, .stats:
            true
        }
    }

    /// How the command uses the store. Only one that may add memos creates a store file
    /// that does not exist yet; the others have nothing to work on in it.
    package var storeUse: StoreUse {
        switch self {
        case .add, .importFile, .sync, .fixture, .preload, .begin, .addFromTemplate, .today:
            .mayAdd
        case .list, .show, .tags, .count, .graph, .links, .search, .export, .history, .info,
            .edit, .update, .editIfStill, .withdraw, .delete, .tag, .untag, .save, .rollback, .undo, .undoSync,
            .redo, .pick, .editMany, .renameTag, .calendar, .stats:
            .existing
        case .help, .quit, .clock, .fixtures:
            .none
        }
    }
}

/// How a command uses the store.
package enum StoreUse: Sendable {
    /// Needs no store.
    case none
    /// Reads or changes what the store holds.
    case existing
    /// May add memos: the command that creates a new store file.
    case mayAdd
}

/// `search`: the query, `list`'s filters, order and page, and whether to order by relevance.
package struct SearchArguments: Equatable, Sendable {
    package var query: SearchQuery
    package var list: ListArguments
    package var isRanked: Bool

    package init(query: SearchQuery, list: ListArguments = ListArguments(), isRanked: Bool = false) {
        self.query = query
        self.list = list
        self.isRanked = isRanked
    }
}

/// The filters of `list` and `count`, with dates still unresolved. Built in this module and
/// its tests only, so the memberwise initializer serves (as for the other arguments below
/// that no other module builds).
package struct FilterArguments: Equatable, Sendable {
    /// Memos with every one of these tags.
    package var tags: [String] = []
    package var since: DateArgument?
    package var until: DateArgument?
    package var on: DateArgument?
    /// Memos linking to this one, linked from it, or (`isOrphan`) with no links (docs/REFERENCE.md,
    /// Links).
    package var linksTo: MemoReference?
    package var linkedFrom: MemoReference?
    package var isOrphan = false
}

/// The arguments of `links`: the memos (by id, none: all) and its filters, whether only the
/// links that look accidental (`--check`), and whether to unlink them (`--unlink`) rather
/// than list them.
package struct LinksArguments: Equatable, Sendable {
    package var ids: [MemoReference] = []
    package var filter = FilterArguments()
    package var onlyAccidental = false
    package var unlinks = false
}

/// How `graph` writes the graph: Graphviz's dot language, or one JSON object.
package enum GraphFormat: String, CaseIterable, Sendable {
    case dot, json
}

/// The arguments of `graph`: its filters, whether only linked memos are drawn, a format unless
/// the output's (dot as text, JSON under `--json`) is wanted, and how dot lays it out.
package struct GraphArguments: Equatable, Sendable {
    package var filter = FilterArguments()
    /// Leave out the memos with no link to or from another memo of the graph (`--linked`).
    package var isLinkedOnly = false
    package var format: GraphFormat?
    package var drawing = GraphDrawing()
}

/// How dot draws a graph (docs/REFERENCE.md, Links): which way links point, and how much of
/// each memo's first line its box shows.
package struct GraphDrawing: Equatable, Sendable {
    /// Graphviz's `rankdir`: left to right by default, as wide boxes stack best in columns.
    package enum Direction: String, CaseIterable, Sendable {
        case leftToRight = "LR", topToBottom = "TB", rightToLeft = "RL", bottomToTop = "BT"
    }

    package var direction = Direction.leftToRight
    /// The most columns of a memo's first line in its box; 0 shows the id alone.
    package var labelLength = 60
}

/// The arguments of `sync`: the other store, for one through ssh the program that serves it
/// there (`--remote-memo`), and whether an encrypted store may sync with a plain one without
/// being asked (`--allow-plaintext`).
package struct SyncArguments: Equatable, Sendable {
    package var target: SyncTarget
    /// The argument as written, for messages.
    package var spelled: String
    package var remoteMemo: String?
    package var allowsPlaintext: Bool

    package init(_ spelled: String, remoteMemo: String? = nil, allowsPlaintext: Bool = false) throws(CommandError) {
        self.target = try SyncTarget.parse(spelled)
        self.spelled = spelled
        self.remoteMemo = remoteMemo
        self.allowsPlaintext = allowsPlaintext
    }
}

/// The arguments of `list`.
package struct ListArguments: Equatable, Sendable {
    package var filter = FilterArguments()
    package var order = MemoOrder.newestFirst
    package var limit: Int?
    package var offset = 0
    /// Headings by day or month in text output; nil for none.
    package var grouping: ListGrouping?
    /// `--ids`: only the ids, one a line (docs/REFERENCE.md, Picking memos).
    package var printsIDs = false

    /// `list` with no options (newest first, every memo): what other modules start from and
    /// change, as this module's memberwise initializer is not theirs to call.
    package static let defaults = ListArguments()
}

/// How `list --group` heads its memos: by calendar day or month in the display time zone.
package enum ListGrouping: String, Equatable, Sendable {
    case day, month
}

/// The file formats of `import` and `export`.
package enum TransferFormat: String, Equatable, Sendable, CaseIterable {
    case jsonl, json, markdown, coredata
    /// jrnl's export (`jrnl --format json`): read only.
    case jrnl

    /// Whether `export` writes it (a Core Data store is only read). A switch: a new format
    /// must say.
    package var isWritable: Bool {
        switch self {
        case .jsonl, .json, .markdown: true
        case .coredata, .jrnl: false
        }
    }

    /// The format a file's name implies: `.jsonl`, `.json`, `.md`/`.markdown`, or a Core
    /// Data store's `.sqlite`/`.store`; nil when the name says nothing.
    package init?(fileName: String) {
        switch fileName.split(separator: ".").last.map({ $0.lowercased() }) {
        case "jsonl", "ndjson": self = .jsonl
        case "json": self = .json
        case "md", "markdown": self = .markdown
        case "sqlite", "store", "sqlite3": self = .coredata
        default: return nil
        }
    }
}

/// The arguments of `import`.
package struct ImportArguments: Equatable, Sendable {
    /// A file, a folder of Markdown notes, or `-` for standard input.
    package var path: String
    /// The `--format` given; nil when the file's content (else its name) tells.
    package var format: TransferFormat?
    package var mapping = CoreDataMapping()
}

/// Which Core Data entity and attributes hold memos (docs/REFERENCE.md's Core Data import
/// defaults).
package struct CoreDataMapping: Equatable, Sendable {
    package var entity = "MemoEntity"
    package var textAttributes = ["content"]
    package var dateAttribute = "insertDate"

    package init() {}
}

/// The arguments of `export`: where to, in which format, and which memos.
package struct ExportArguments: Equatable, Sendable {
    /// A file path, or `-` for standard output.
    package var path: String
    package var format: TransferFormat
    package var filter = FilterArguments()
}

/// What one line of input amounts to.
package enum ParsedLine: Equatable, Sendable {
    /// A blank line or a comment.
    case nothing
    case command(Command)
    /// The command's text follows on the next lines, up to the line that closes `opener`.
    case needsHeredoc(HeredocOpener)
}
