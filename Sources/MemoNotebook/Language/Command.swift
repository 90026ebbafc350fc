import MemoStore

/// A parsed command, ready to run against a `Notebook`.
package enum Command: Equatable, Sendable {
    case add(text: String, tags: [String])
    case list(ListArguments)
    case show(ids: [Int64])
    case edit(id: Int64, text: String)
    case delete(ids: [Int64])
    case tag(id: Int64, tags: [String])
    case untag(id: Int64, tags: [String])
    case tags
    case count(FilterArguments)
    case info
    case help(topic: String?)
    case quit
    /// Sets the deterministic clock of scripting mode.
    case clock(DateArgument)
    /// Loads a built-in fixture by name, or a fixture script by path.
    case fixture(String)
    case fixtures

    /// Whether the command reads or writes memos; `help` and `fixtures` need no store.
    package var needsStore: Bool {
        switch self {
        case .help, .fixtures, .quit: false
        default: true
        }
    }
}

/// The filters of `list` and `count`, with dates still unresolved.
package struct FilterArguments: Equatable, Sendable {
    package var tag: String?
    package var since: DateArgument?
    package var until: DateArgument?
    package var on: DateArgument?

    package init(tag: String? = nil, since: DateArgument? = nil, until: DateArgument? = nil, on: DateArgument? = nil) {
        self.tag = tag
        self.since = since
        self.until = until
        self.on = on
    }
}

/// The arguments of `list`.
package struct ListArguments: Equatable, Sendable {
    package var filter = FilterArguments()
    package var order = MemoOrder.newestFirst
    package var limit: Int?
    package var offset = 0

    package init(filter: FilterArguments = FilterArguments(), order: MemoOrder = .newestFirst,
                 limit: Int? = nil, offset: Int = 0) {
        self.filter = filter
        self.order = order
        self.limit = limit
        self.offset = offset
    }
}

/// What one line of input amounts to.
package enum ParsedLine: Equatable, Sendable {
    /// A blank line or a comment.
    case nothing
    case command(Command)
    /// The command's text follows on the next lines, up to the line that closes `opener`.
    case needsHeredoc(HeredocOpener)
}
