import MemoStore

/// One way to finish the word being typed.
package struct Completion: Equatable, Sendable {
    /// The whole word, replacing what was typed of it.
    package var text: String
    /// Shown beside the word when several match: a memo's first line.
    package var hint: String?

    package init(_ text: String, hint: String? = nil) {
        self.text = text
        self.hint = hint
    }
}

/// What completion needs to know about the notebook.
package protocol CompletionData {
    func tagNames() -> [String]
    /// Memos whose id starts with `prefix`, newest first, with their first line.
    func memoSummaries(idPrefix: String, limit: Int) -> [Completion]
}

/// Completes the command language: command names, a command's options, tags after
/// `--tag` and `@`, fixture names, memo ids. Shared by the REPL's Tab and the language
/// server's completion.
package struct Completer {
    package let data: CompletionData
    /// How many memo ids to offer at most.
    package static let idLimit = 50

    package init(data: CompletionData) {
        self.data = data
    }

    /// The completions for the word that ends where `textBeforeCursor` ends, and that word.
    package func complete(_ textBeforeCursor: String) -> (word: String, completions: [Completion]) {
        let words = textBeforeCursor.split(whereSeparator: \.isWhitespace).map(String.init)
        let startsNewWord = textBeforeCursor.last?.isWhitespace ?? true
        let word = startsNewWord ? "" : words.last ?? ""
        let before = startsNewWord ? words : Array(words.dropLast())
        return (word, candidates(for: word, after: before).filter { $0.text.hasPrefix(word) })
    }

    private func candidates(for word: String, after before: [String]) -> [Completion] {
        if word.hasPrefix("@") { return data.tagNames().map { Completion("@" + $0) } }
        guard let name = before.first else { return Self.commandNames }
        guard let syntax = CommandSyntax.named(name) else { return [] }
        if before.last == "--tag", syntax.option(named: "--tag") != nil { return tags }
        if word.hasPrefix("-") { return syntax.options.flatMap(\.names).map { Completion($0) } }
        let position = before.count
        switch syntax.name {
        case "help" where position == 1: return Self.commandNames
        case "fixture" where position == 1: return Fixture.builtIn.map { Completion($0.name, hint: $0.description) }
        case "show", "delete": return ids(word)
        case "edit" where position == 1: return ids(word)
        case "tag", "untag": return position == 1 ? ids(word) : tags
        default: return []
        }
    }

    private var tags: [Completion] {
        data.tagNames().map { Completion($0) }
    }

    private func ids(_ word: String) -> [Completion] {
        let prefix = word.hasPrefix("#") ? String(word.dropFirst()) : word
        guard prefix.allSatisfy(\.isASCII) && prefix.allSatisfy(\.isNumber) else { return [] }
        let summaries = data.memoSummaries(idPrefix: prefix, limit: Self.idLimit)
        return word.hasPrefix("#") ? summaries.map { Completion("#" + $0.text, hint: $0.hint) } : summaries
    }

    private static let commandNames = CommandSyntax.all.flatMap { [$0.name] + $0.aliases }.map { Completion($0) }
}

extension Notebook: CompletionData {
    package func tagNames() -> [String] {
        (try? store.tagCounts().map(\.name)) ?? []
    }

    package func memoSummaries(idPrefix: String, limit: Int) -> [Completion] {
        let summaries = (try? store.summaries(idPrefix: idPrefix, limit: limit)) ?? []
        return summaries.map { Completion(String($0.id), hint: $0.firstLine) }
    }
}
