import MemoStore

/// Turns a line of the command language, or the program's arguments, into a `Command`.
package enum CommandParser {
    /// Parses one line. A line ending in a heredoc opener (`<<WORD`) asks for the heredoc
    /// before anything else is checked; call again with the collected `heredoc` body to get
    /// the command, or the error of the line.
    package static func parse(line: String, heredoc: String? = nil) throws(CommandError) -> ParsedLine {
        let trimmed = line.drop { $0.isBlank }
        if trimmed.isEmpty || trimmed.hasPrefix("#") { return .nothing }
        guard let opener = HeredocOpener(endOf: line) else {
            var words = LineScanner(line)
            return try parse(&words, heredoc: nil)
        }
        guard let heredoc else { return .needsHeredoc(opener) }
        var words = LineScanner(line, end: opener.commandEnd)
        let parsed = try parse(&words, heredoc: heredoc)
        if parsed == .nothing { throw .usage("a heredoc needs a command before '<<'") }
        return parsed
    }

    /// Parses a one-shot command from program arguments, already split by the shell.
    package static func parse(arguments: [String]) throws(CommandError) -> Command {
        var words = ArgumentWords(arguments)
        guard case .command(let command) = try parse(&words, heredoc: nil) else {
            throw .usage("no command given")
        }
        return command
    }

    private static func parse<Source: WordSource>(
        _ words: inout Source, heredoc: String?
    ) throws(CommandError) -> ParsedLine {
        guard let name = try words.nextWord() else { return .nothing }
        guard let syntax = CommandSyntax.named(name.text), let command = syntax.kind.languageCommand, !name.isOption
        else {
            throw .unknownCommand(name)
        }
        if asksForHelp(words, syntax) { return .command(.help(topic: syntax.name)) }
        if heredoc != nil, !syntax.takesText {
            throw .usage("'\(syntax.name)' takes no heredoc text", range: name.range)
        }
        if let picking = try interactive(command, words, syntax, heredoc: heredoc) { return .command(picking) }
        var reader = ArgumentReader(words: words, syntax: syntax.withoutPicking)
        switch command {
        case .add:
            let text = try reader.text()
            let tags = try reader.values("--tag").map(tagName)
            let date = try reader.value("--date").map(DateArgument.parse)
            if let template = reader.value("--template") {
                if date != nil {
                    throw .usage("'--date' does not go with '--template' (edit ID --date moves the memo)")
                }
                return .command(try addFromTemplate(template, title: text, heredoc: heredoc, tags: tags))
            }
            return try withText(text, heredoc: heredoc, syntax) { .add(text: $0, tags: tags, date: date) }
        case .edit:
            var selecting = reader
            guard try selecting.nextArgument() != nil else { return try bulkEdit(selecting, heredoc: heredoc) }
            try refuseSelection(selecting)
            var editing = ArgumentReader(words: words, syntax: syntax.withoutSelection)
            editing.optionsOfAnotherForm = selectionRefusals
            guard let idWord = try editing.nextArgument() else { throw .missingArgument("a memo id", command: "edit") }
            let id = try memoID(idWord)
            let text = try editing.text()
            let date = try editing.value("--date").map(DateArgument.parse)
            return try withText(text, heredoc: heredoc, syntax) { .edit(id: id, text: $0, date: date) }
        case .list:
            return .command(.list(try listArguments(&reader)))
        case .count:
            return .command(.count(try filterArguments(&reader)))
        case .graph:
            return .command(.graph(try graphArguments(&reader)))
        case .links:
            let ids = try reader.remainingArguments().map(memoID)
            return .command(
                .links(
                    LinksArguments(
                        ids: ids, filter: try filterArguments(reader), onlyAccidental: reader.flag("--check"),
                        unlinks: reader.flag("--unlink"))))
        case .search:
            return .command(.search(try searchArguments(&reader)))
        case .history:
            try reader.finish()
            return .command(
                .history(
                    limit: try reader.value("-n").map { word throws(CommandError) in try count(word, option: "-n") }))
        case .import:
            return .command(.importFile(try importArguments(&reader)))
        case .export:
            return .command(.export(try exportArguments(&reader)))
        case .show:
            return .command(.show(ids: try memoIDs(&reader)))
        case .delete:
            return .command(.delete(ids: try memoIDs(&reader)))
        case .tag:
            if let rename = try renameTag(reader) { return .command(rename) }
            let (id, tags) = try memoIDAndTags(&reader)
            return .command(.tag(id: id, tags: tags))
        case .untag:
            let (id, tags) = try memoIDAndTags(&reader)
            return .command(.untag(id: id, tags: tags))
        case .sync:
            let target = try onlyArgument(&reader, "the path of a memo store, or HOST:PATH")
            if let program = reader.value("--remote-memo"), program.text.allSatisfy(\.isWhitespace) {
                throw .usage("'--remote-memo' needs a program", range: program.range)
            }
            do {
                return .command(
                    .sync(
                        try SyncArguments(
                            target.text, remoteMemo: reader.value("--remote-memo")?.text,
                            allowsPlaintext: reader.flag("--allow-plaintext"))))
            } catch {
                throw CommandError(kind: error.kind, message: error.message, range: target.range)
            }
        case .clock:
            let date = try reader.remainingArguments()
            guard !date.isEmpty else { throw .missingArgument("a date", command: reader.syntax.name) }
            return .command(.clock(try DateArgument.parse(Word(joining: date))))
        case .fixture:
            return .command(.fixture(try onlyArgument(&reader, "a fixture name or file").text))
        case .help:
            let topic = try reader.nextArgument()
            try reader.finish()
            if let topic, CommandSyntax.named(topic.text) == nil { throw .unknownCommand(topic) }
            return .command(.help(topic: topic?.text))
        case .tags: return try withoutArguments(.tags, &reader)
        case .info: return try withoutArguments(.info, &reader)
        case .quit: return try withoutArguments(.quit, &reader)
        case .fixtures: return try withoutArguments(.fixtures, &reader)
        case .begin: return try withoutArguments(.begin, &reader)
        case .save: return try withoutArguments(.save, &reader)
        case .rollback: return try withoutArguments(.rollback, &reader)
        case .undo:
            try reader.finish()
            return .command(reader.flag("--sync") ? .undoSync : .undo)
        case .redo: return try withoutArguments(.redo, &reader)
        case .today: return try withoutArguments(.today, &reader)
        case .pick: return .command(try pickCommand(&reader))
        case .calendar:
            let filter = try filterArguments(&reader)
            return .command(.calendar(try CalendarArguments(filter: filter, year: reader.value("--year"))))
        case .stats: return .command(.stats(try filterArguments(&reader)))
        }
    }

    /// Whether `--help` or `-h` stands among the command's options: anywhere before `--`,
    /// as every command's options may (`add see --help` asks for help; `add -- see --help`
    /// is a memo's text).
    private static func asksForHelp<Source: WordSource>(_ words: Source, _ syntax: CommandSyntax) -> Bool {
        var lookahead = words
        // Raw words where text or a search may hold words that do not lex (`Don't`).
        let raw = syntax.kind == .language(.search) || syntax.takesText
        while let word = raw ? lookahead.nextRawWord() : try? lookahead.nextWord(), word.text != "--" {
            if word.isOption, word.text == "--help" || word.text == "-h" { return true }
            if word.isOption, !word.text.contains("="), syntax.option(named: word.text)?.valueName != nil {
                _ = raw ? lookahead.nextRawWord() : try? lookahead.nextWord()
            }
        }
        return false
    }

    /// A command that takes no arguments, once none are left.
    private static func withoutArguments<S>(
        _ command: Command, _ reader: inout ArgumentReader<S>
    ) throws(CommandError) -> ParsedLine {
        try reader.finish()
        return .command(command)
    }

    /// The one argument a command takes, with no other after it.
    private static func onlyArgument<S>(_ reader: inout ArgumentReader<S>, _ name: String) throws(CommandError) -> Word
    {
        guard let argument = try reader.nextArgument() else {
            throw .missingArgument(name, command: reader.syntax.name)
        }
        try reader.finish()
        return argument
    }

    /// `show ID...` and `delete ID...`: at least one memo id.
    private static func memoIDs<S>(_ reader: inout ArgumentReader<S>) throws(CommandError) -> [MemoReference] {
        let ids = try reader.remainingArguments().map(memoID)
        guard !ids.isEmpty else { throw .missingArgument("at least one memo id", command: reader.syntax.name) }
        return ids
    }

    /// `tag ID TAG...` and `untag ID TAG...`: a memo id, then at least one tag.
    private static func memoIDAndTags<S>(
        _ reader: inout ArgumentReader<S>
    ) throws(CommandError) -> (MemoReference, [String]) {
        let arguments = try reader.remainingArguments()
        guard let idWord = arguments.first else { throw .missingArgument("a memo id", command: reader.syntax.name) }
        let id = try memoID(idWord)
        let tags = try arguments.dropFirst().map(tagName)
        guard !tags.isEmpty else { throw .missingArgument("at least one tag", command: reader.syntax.name) }
        return (id, tags)
    }

    /// Builds a text command from the text on the line or the heredoc's body, or with no
    /// text for the session to get.
    private static func withText(
        _ word: Word?, heredoc: String?, _ syntax: CommandSyntax,
        _ make: (String?) -> Command
    ) throws(CommandError) -> ParsedLine {
        if let word, heredoc != nil {
            throw .usage("'\(syntax.name)' takes its text on the line or in a heredoc, not both", range: word.range)
        }
        return .command(make(word?.text ?? heredoc))
    }

    /// `search [-F] [list filters] [-n N] [--offset N] [--asc|--desc] [--rank] WORDS...`,
    /// options anywhere before `--`; with `-F` the words are one fixed string.
    static func searchArguments<S>(_ reader: inout ArgumentReader<S>) throws(CommandError) -> SearchArguments {
        let words = try reader.searchWords()
        guard let first = words.first, let last = words.last else {
            throw .missingArgument("a search query", command: reader.syntax.name)
        }
        let range = first.range.flatMap { start in last.range.map { start.lowerBound..<$0.upperBound } }
        let query: SearchQuery
        do {
            let text = words.map(\.text).joined(separator: " ")
            query = try reader.flag("-F") ? SearchQuery(fixed: text) : SearchQuery(parsing: text)
        } catch {
            throw .invalid(error.description, range: range)
        }
        let list = try listOptions(reader, filter: try filterArguments(reader))
        if reader.flag("--rank"), let order = reader.values("--asc").first ?? reader.values("--desc").first {
            throw .usage("'search' takes --rank or an order (--asc, --desc), not both", range: order.range)
        }
        return SearchArguments(query: query, list: list, isRanked: reader.flag("--rank"))
    }

    private static func listArguments<S>(_ reader: inout ArgumentReader<S>) throws(CommandError) -> ListArguments {
        let positional = try reader.remainingArguments()
        if let extra = positional.first { throw reader.unexpected(extra, then: positional.dropFirst()) }
        return try listOptions(reader, filter: try filterArguments(reader))
    }

    /// `list`'s order and page among the options read.
    static func listOptions<S>(
        _ reader: ArgumentReader<S>, filter: FilterArguments
    ) throws(CommandError) -> ListArguments {
        var arguments = ListArguments(filter: filter)
        arguments.printsIDs = reader.flag(OptionSyntax.ids.name)
        if reader.flag("--asc") { arguments.order = .oldestFirst }
        if reader.flag("--asc") && reader.flag("--desc") {
            throw .usage("'\(reader.syntax.name)' takes --asc or --desc, not both")
        }
        arguments.limit = try reader.value("-n").map { word throws(CommandError) in try count(word, option: "-n") }
        arguments.offset =
            try reader.value("--offset").map { word throws(CommandError) in try count(word, option: "--offset") } ?? 0
        if let group = reader.value("--group") {
            guard let grouping = ListGrouping(rawValue: group.text) else {
                throw .invalid("invalid grouping '\(group.text)' for '--group': use day or month", range: group.range)
            }
            arguments.grouping = grouping
        }
        return arguments
    }

    /// `import FILE [--format F] [--entity NAME] [--text A,B] [--date A]`.
    private static func importArguments<S>(_ reader: inout ArgumentReader<S>) throws(CommandError) -> ImportArguments {
        let positional = try reader.remainingArguments()
        guard let file = positional.first else {
            throw .missingArgument("a file to import", command: reader.syntax.name)
        }
        if positional.count > 1 { throw reader.unexpected(positional[1], then: positional.dropFirst(2)) }
        var arguments = ImportArguments(
            path: file.text,
            format: reader.value("--format") == nil
                ? nil : try format(reader, for: file, allowed: TransferFormat.allCases))
        let coreDataOptions = ["--entity", "--text", "--date"].compactMap(reader.value)
        if (arguments.format ?? TransferFormat(fileName: file.text)) != .coredata, let option = coreDataOptions.first {
            throw .usage("'--entity', '--text' and '--date' go with '--format coredata'", range: option.range)
        }
        if let entity = reader.value("--entity") { arguments.mapping.entity = entity.text }
        if let text = reader.value("--text") {
            arguments.mapping.textAttributes = text.text.split(separator: ",").map { $0.trimmingSpaces() }
            if arguments.mapping.textAttributes.contains(where: \.isEmpty) || arguments.mapping.textAttributes.isEmpty {
                throw .invalid(
                    "invalid attribute list '\(text.text)' for '--text': use NAME or NAME,NAME", range: text.range)
            }
        }
        if let date = reader.value("--date") { arguments.mapping.dateAttribute = date.text }
        return arguments
    }

    /// `export FILE|- [--format F] [filters]`.
    private static func exportArguments<S>(_ reader: inout ArgumentReader<S>) throws(CommandError) -> ExportArguments {
        let positional = try reader.remainingArguments()
        guard let file = positional.first else {
            throw .missingArgument("a file to write, or - for standard output", command: reader.syntax.name)
        }
        if positional.count > 1 { throw reader.unexpected(positional[1], then: positional.dropFirst(2)) }
        let filter = try filterArguments(reader)
        return ExportArguments(
            path: file.text,
            format: try format(reader, for: file, allowed: TransferFormat.allCases.filter(\.isWritable)), filter: filter
        )
    }

    /// The `--format` given, else the one the file's name implies, else JSON Lines.
    private static func format<S>(
        _ reader: ArgumentReader<S>, for file: Word, allowed: [TransferFormat]
    ) throws(CommandError) -> TransferFormat {
        let names = allowed.map(\.rawValue).joined(separator: ", ")
        guard let word = reader.value("--format") else {
            guard let implied = TransferFormat(fileName: file.text), allowed.contains(implied) else { return .jsonl }
            return implied
        }
        guard let format = TransferFormat(rawValue: word.text), allowed.contains(format) else {
            throw .invalid("invalid format '\(word.text)' for '--format': use \(names)", range: word.range)
        }
        return format
    }

    /// Reads all arguments of a filtering command, so options are seen wherever they stand,
    /// and returns its filters. Filtering commands take no positional arguments.
    private static func filterArguments<S>(_ reader: inout ArgumentReader<S>) throws(CommandError) -> FilterArguments {
        let positional = try reader.remainingArguments()
        if let extra = positional.first { throw reader.unexpected(extra, then: positional.dropFirst()) }
        return try filterArguments(reader)
    }

    /// The filters among options already read.
    static func filterArguments<S>(_ reader: ArgumentReader<S>) throws(CommandError) -> FilterArguments {
        var filter = FilterArguments()
        filter.tags = try reader.values("--tag").map(tagName)
        filter.since = try reader.value("--since").map(DateArgument.parse)
        filter.until = try reader.value("--until").map(DateArgument.parse)
        filter.on = try reader.value("--on").map(DateArgument.parse)
        filter.linksTo = try reader.value("--links-to").map(memoID)
        filter.linkedFrom = try reader.value("--linked-from").map(memoID)
        filter.isOrphan = reader.flag("--orphan")
        if filter.on != nil, filter.since != nil || filter.until != nil {
            throw .usage("'--on' cannot be combined with '--since' or '--until'", range: reader.value("--on")?.range)
        }
        return filter
    }

    /// `graph`'s filters, `--linked`, its format and how dot draws it.
    private static func graphArguments<S>(_ reader: inout ArgumentReader<S>) throws(CommandError) -> GraphArguments {
        var arguments = GraphArguments(filter: try filterArguments(&reader), isLinkedOnly: reader.flag("--linked"))
        if arguments.isLinkedOnly, arguments.filter.isOrphan {
            throw .usage("'--linked' cannot be combined with '--orphan'", range: reader.value("--linked")?.range)
        }
        if let word = reader.value("--format") {
            guard let format = GraphFormat(rawValue: word.text) else {
                throw .invalid("invalid format '\(word.text)' for '--format': use dot, json", range: word.range)
            }
            arguments.format = format
        }
        if let word = reader.value("--direction") {
            guard let direction = GraphDrawing.Direction(rawValue: word.text.uppercased()) else {
                throw .invalid(
                    "invalid direction '\(word.text)' for '--direction': use LR, TB, RL, BT", range: word.range)
            }
            arguments.drawing.direction = direction
        }
        if let word = reader.value("--label-length") {
            arguments.drawing.labelLength = try count(word, option: "--label-length")
        }
        return arguments
    }

    /// A memo id: a positive integer, optionally written `#12` as listings show it, or a
    /// memo's stable form, `memo:HANDLE` or `memo:UUID` (docs/REFERENCE.md, Links), which
    /// the notebook resolves in its store.
    static func memoID(_ word: Word) throws(CommandError) -> MemoReference {
        let digits = word.text.hasPrefix("#") ? word.text.dropFirst() : Substring(word.text)
        if let id = Int64(digits), id > 0 { return .id(id) }
        let found = MemoReference.all(in: word.text, syntax: .plain)
        if let stable = found.first, found.count == 1, stable.range == word.text.startIndex..<word.text.endIndex {
            switch stable.reference {
            case .uuid, .handle: return stable.reference
            case .id: break
            }
        }
        throw .invalid(
            "invalid memo id '\(word.text)': expected a positive number, memo:HANDLE or memo:UUID", range: word.range)
    }

    private static func count(_ word: Word, option: String) throws(CommandError) -> Int {
        guard let number = Int(word.text), number >= 0 else {
            let digits =
                !word.text.isEmpty && word.text.utf8.allSatisfy { (UInt8(ascii: "0")...UInt8(ascii: "9")).contains($0) }
            let problem = digits ? "too large (at most \(Int.max))" : "expected 0 or more"
            throw .invalid("invalid number '\(word.text)' for '\(option)': \(problem)", range: word.range)
        }
        return number
    }

    static func tagName(_ word: Word) throws(CommandError) -> String {
        do {
            return try TagName.normalize(word.text)
        } catch {
            throw .invalid(error.description, range: word.range)
        }
    }
}
