import MemoStore

/// One way to finish the word being typed.
package struct Completion: Equatable, Sendable {
    /// The whole word, replacing what was typed of it.
    package var text: String
    /// Shown beside the word when several match: a memo's first line.
    package var hint: String?
    /// How editors sort it among the others, when text order is wrong (ids: by number).
    package var sortKey: String?

    package init(_ text: String, hint: String? = nil, sortKey: String? = nil) {
        self.text = text
        self.hint = hint
        self.sortKey = sortKey
    }
}

/// The completions of the word before the cursor.
package struct Completions: Equatable, Sendable {
    /// The word typed so far, which a completion replaces.
    package var word: String
    package var items: [Completion]
    /// True when more would match than are offered (`Completer.limit`).
    package var isIncomplete: Bool
}

/// What completion needs to know about the notebook.
package protocol CompletionData {
    func tagNames() -> [String]
    /// Memos whose id starts with `prefix`, newest first, with their first line.
    func memoSummaries(idPrefix: String, limit: Int) -> [MemoStore.Summary]
    /// The first and the last memo whose id starts with `prefix`, in text order.
    func memoTextOrderBounds(idPrefix: String) -> (first: MemoStore.Summary, last: MemoStore.Summary)?
    /// The names `add --template` takes (`TemplateFolder.names`).
    func templateNames() -> [String]
}

extension CompletionData {
    /// None, where no templates folder is known.
    package func templateNames() -> [String] { [] }
}

/// Completes the command language: command names, a command's options, tags after
/// `--tag` and `@`, fixture names, memo ids. Shared by the REPL's Tab and the language
/// server's completion.
package struct Completer {
    package let data: CompletionData
    /// How many completions to offer at most; `isIncomplete` says when more would match.
    package static let limit = 50

    package init(data: CompletionData) {
        self.data = data
    }

    /// The completions for the word that ends where `textBeforeCursor` ends, and that word.
    /// Case does not matter (`@TRA` finds `@travel`): a completion replaces the whole word.
    package func complete(_ textBeforeCursor: String) -> Completions {
        let words = textBeforeCursor.split(whereSeparator: \.isWhitespace).map(String.init)
        let startsNewWord = textBeforeCursor.last?.isWhitespace ?? true
        let word = startsNewWord ? "" : words.last ?? ""
        let before = startsNewWord ? words : Array(words.dropLast())
        let typed = TagName.fold(word)
        let found = candidates(for: word, after: before)
        let items = found.items.filter { TagName.fold($0.text).hasPrefix(typed) }
        return Completions(
            word: word, items: Array(items.prefix(Self.limit)),
            isIncomplete: found.isCut || items.count > Self.limit)
    }

    /// What the word may become, and whether some matches were left out (ids only).
    private struct Candidates {
        var items: [Completion]
        var isCut = false
    }

    private func candidates(for word: String, after before: [String]) -> Candidates {
        if word.hasPrefix("@") { return Candidates(items: data.tagNames().map { Completion("@" + $0) }) }
        guard let name = before.first else { return Candidates(items: Self.commandNames) }
        guard let syntax = CommandSyntax.named(name), let command = syntax.kind.languageCommand else {
            return Candidates(items: [])
        }
        if before.last == "--tag", syntax.option(named: "--tag") != nil { return Candidates(items: tags) }
        if before.last == "--template", syntax.option(named: "--template") != nil {
            return Candidates(items: data.templateNames().map { Completion($0) })
        }
        if let option = before.last, ["--links-to", "--linked-from"].contains(option),
            syntax.option(named: option) != nil
        {
            return ids(word)
        }
        if before.last == "--format", let formats = Self.formatNames(of: command) {
            return Candidates(items: formats.map { Completion($0) })
        }
        if before.last == "--direction", command == .graph {
            return Candidates(items: GraphDrawing.Direction.allCases.map { Completion($0.rawValue) })
        }
        if word.hasPrefix("-") {
            return Candidates(items: offeredOptions(syntax, after: before).flatMap(\.names).map { Completion($0) })
        }
        if let dates = dateWords(after: before, command: command, syntax: syntax) { return Candidates(items: dates) }
        let isFirstArgument = before.count == 1
        let none = Candidates(items: [])
        // With -i the words are a query (a tag for `tag -i TAG`), never ids.
        if PickAction(command) != nil, before.contains(where: { $0 == "-i" || $0 == "--interactive" }) {
            return command == .tag ? Candidates(items: tags) : none
        }
        switch command {
        case .help: return isFirstArgument ? Candidates(items: Self.commandNames) : none
        case .fixture:
            return isFirstArgument
                ? Candidates(items: Fixture.builtIn.map { Completion($0.name, hint: $0.description) }) : none
        case .show, .delete, .links: return ids(word)
        case .edit: return isFirstArgument ? ids(word) : none
        case .tag, .untag: return isFirstArgument ? ids(word) : Candidates(items: tags)
        case .add, .list, .search, .tags, .count, .graph, .begin, .save, .rollback, .undo, .redo, .history, .sync,
            .import, .export, .fixtures, .clock, .info, .quit, .today, .pick, .calendar, .stats:
            return none
        }
    }

    /// A command's options; for `edit` after its id, those of `edit ID` alone: the filters that
    /// select the memos of a bulk edit are words of the text there.
    private func offeredOptions(_ syntax: CommandSyntax, after before: [String]) -> [OptionSyntax] {
        guard syntax.kind == .language(.edit) else { return syntax.options }
        let namesMemo = before.indices.dropFirst().contains { index in
            !before[index].hasPrefix("-") && syntax.option(named: before[index - 1])?.valueName == nil
        }
        return namesMemo ? syntax.withoutSelection.options : syntax.options
    }

    /// The words a date may go on with: its first words after a DATE option or `clock`, a
    /// weekday or a period after its `last`, `this` or `next`. Nil where no date is typed.
    private func dateWords(after before: [String], command: CommandName, syntax: CommandSyntax) -> [Completion]? {
        func startsDate(after count: Int) -> Bool {
            if count == 1 { return command == .clock }
            return count > 1 && syntax.option(named: before[count - 1])?.takesDate == true
        }
        if startsDate(after: before.count) { return DateWords.firstWords.map { Completion($0) } }
        if let last = before.last, DateArgument.Relation(rawValue: last) != nil, startsDate(after: before.count - 1) {
            return DateWords.wordsAfterRelation.map { Completion($0) }
        }
        return nil
    }

    /// The formats `import` reads, `export` and `graph` write, offered after their `--format`.
    private static func formatNames(of command: CommandName) -> [String]? {
        switch command {
        case .import: TransferFormat.allCases.map(\.rawValue)
        case .export: TransferFormat.allCases.filter(\.isWritable).map(\.rawValue)
        case .graph: GraphFormat.allCases.map(\.rawValue)
        default: nil
        }
    }

    private var tags: [Completion] {
        data.tagNames().map { Completion($0) }
    }

    /// Memos whose id starts with what was typed, in number order. When more match than
    /// the limit, the newest are offered with the first and the last match in text order:
    /// Tab then inserts only what all matching ids share (offering just the newest, `7`
    /// became `71` in a store of 71,328 memos, though 7 and 70 exist).
    private func ids(_ word: String) -> Candidates {
        let prefix = word.hasPrefix("#") ? String(word.dropFirst()) : word
        guard prefix.allSatisfy(\.isASCII) && prefix.allSatisfy(\.isNumber) else { return Candidates(items: []) }
        var summaries = data.memoSummaries(idPrefix: prefix, limit: Self.limit + 1)
        let isCut = summaries.count > Self.limit
        if isCut, let bounds = data.memoTextOrderBounds(idPrefix: prefix) {
            let ends = [bounds.first, bounds.last]
            summaries = summaries.filter { !ends.contains($0) }.prefix(Self.limit - ends.count) + ends
        }
        let items = summaries.sorted { $0.id < $1.id }.map { summary in
            let digits = String(summary.id)
            return Completion(
                (word.hasPrefix("#") ? "#" : "") + digits, hint: summary.title,
                sortKey: String(repeating: "0", count: max(0, 19 - digits.count)) + digits)
        }
        return Candidates(items: items, isCut: isCut)
    }

    private static let commandNames = CommandSyntax.all.flatMap { [$0.name] + $0.aliases }.map { Completion($0) }

    /// Completion with no store behind it: commands, options and fixtures only.
    package static var withoutStore: Completer { Completer(data: NoStoreData()) }
}

private struct NoStoreData: CompletionData {
    func tagNames() -> [String] { [] }
    func memoSummaries(idPrefix: String, limit: Int) -> [MemoStore.Summary] { [] }
    func memoTextOrderBounds(idPrefix: String) -> (first: MemoStore.Summary, last: MemoStore.Summary)? { nil }
}

extension Notebook: CompletionData {
    package func tagNames() -> [String] {
        (try? store.tagCounts().map(\.name)) ?? []
    }

    package func memoSummaries(idPrefix: String, limit: Int) -> [MemoStore.Summary] {
        (try? store.summaries(idPrefix: idPrefix, limit: limit)) ?? []
    }

    package func memoTextOrderBounds(idPrefix: String) -> (first: MemoStore.Summary, last: MemoStore.Summary)? {
        try? store.textOrderBounds(idPrefix: idPrefix)
    }

    package func templateNames() -> [String] {
        templates?.names() ?? []
    }
}
