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
        let items = candidates(for: word, after: before).filter { TagName.fold($0.text).hasPrefix(typed) }
        return Completions(word: word, items: Array(items.prefix(Self.limit)), isIncomplete: items.count > Self.limit)
    }

    private func candidates(for word: String, after before: [String]) -> [Completion] {
        if word.hasPrefix("@") { return data.tagNames().map { Completion("@" + $0) } }
        guard let name = before.first else { return Self.commandNames }
        guard let syntax = CommandSyntax.named(name), let command = syntax.kind.languageCommand else { return [] }
        if before.last == "--tag", syntax.option(named: "--tag") != nil { return tags }
        if let option = before.last, ["--links-to", "--linked-from"].contains(option), syntax.option(named: option) != nil { return ids(word) }
        if word.hasPrefix("-") { return syntax.options.flatMap(\.names).map { Completion($0) } }
        let isFirstArgument = before.count == 1
        switch command {
        case .help: return isFirstArgument ? Self.commandNames : []
        case .fixture: return isFirstArgument ? Fixture.builtIn.map { Completion($0.name, hint: $0.description) } : []
        case .show, .delete: return ids(word)
        case .edit: return isFirstArgument ? ids(word) : []
        case .tag, .untag: return isFirstArgument ? ids(word) : tags
        case .add, .list, .search, .tags, .count, .graph, .begin, .save, .rollback, .undo, .redo, .history, .sync,
             .import, .export, .fixtures, .clock, .info, .quit:
            return []
        }
    }

    private var tags: [Completion] {
        data.tagNames().map { Completion($0) }
    }

    /// Memos whose id starts with what was typed, one more than the limit so that a cut list
    /// can be told from a whole one; sorted by number in editors.
    private func ids(_ word: String) -> [Completion] {
        let prefix = word.hasPrefix("#") ? String(word.dropFirst()) : word
        guard prefix.allSatisfy(\.isASCII) && prefix.allSatisfy(\.isNumber) else { return [] }
        return data.memoSummaries(idPrefix: prefix, limit: Self.limit + 1).map { summary in
            let digits = String(summary.id)
            return Completion((word.hasPrefix("#") ? "#" : "") + digits, hint: summary.title,
                              sortKey: String(repeating: "0", count: max(0, 19 - digits.count)) + digits)
        }
    }

    private static let commandNames = CommandSyntax.all.flatMap { [$0.name] + $0.aliases }.map { Completion($0) }
}

extension Notebook: CompletionData {
    package func tagNames() -> [String] {
        (try? store.tagCounts().map(\.name)) ?? []
    }

    package func memoSummaries(idPrefix: String, limit: Int) -> [MemoStore.Summary] {
        (try? store.summaries(idPrefix: idPrefix, limit: limit)) ?? []
    }
}
