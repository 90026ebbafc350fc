/// The parsing of `pick` and of `-i`/`--interactive` on `show`, `edit`, `delete` and `tag`
/// (docs/REFERENCE.md, Picking memos).
extension CommandParser {
    /// `pick [list options] [-F] [QUERY]`.
    static func pickCommand<S>(_ reader: inout ArgumentReader<S>) throws(CommandError) -> Command {
        .pick(PickRequest(source: try pickSource(&reader), action: .printIDs))
    }

    /// `show`, `edit`, `delete` or `tag` with `-i` among its options: a pick of the memos the
    /// rest selects, acted on once picked. Nil without `-i`, when none of the options that go
    /// only with it is there either. For `edit`, whose text may hold words like `-i`, only
    /// options before its first argument count (`edit 3 ls -i` is a text).
    static func interactive<S: WordSource>(
        _ name: CommandName, _ words: S, _ syntax: CommandSyntax, heredoc: String?
    ) throws(CommandError) -> Command? {
        guard let action = PickAction(name) else { return nil }
        var lookahead = words
        var asksToPick = false, pickOnly: Word?
        while let word = lookahead.nextRawWord(), word.text != "--" {
            guard word.isOption else {
                if syntax.takesText { break }
                continue
            }
            guard let (option, inlineValue) = syntax.option(spelledBy: word.text) else { continue }
            if option.name == OptionSyntax.interactive.name {
                asksToPick = true
            } else if syntax.optionsOnlyForPicking.contains(where: { $0.name == option.name }) {
                pickOnly = pickOnly ?? word
            }
            if inlineValue == nil, option.valueName != nil { _ = lookahead.nextRawWord() }
        }
        guard asksToPick else {
            guard let pickOnly else { return nil }
            throw .usage(
                "'\(pickOnly.text)' goes with -i: '\(syntax.name) -i' picks among the memos it selects",
                range: pickOnly.range)
        }
        if heredoc != nil { throw .usage("'\(syntax.name) -i' takes no heredoc text") }
        var reader = ArgumentReader(words: words, syntax: syntax)
        guard case .tag = action else { return .pick(PickRequest(source: try pickSource(&reader), action: action)) }
        let tags = try reader.remainingArguments().map(tagName)
        guard !tags.isEmpty else { throw .missingArgument("at least one tag", command: syntax.name) }
        let list = try listOptions(reader, filter: filterArguments(reader))
        return .pick(PickRequest(source: .list(list), action: .tag(tags)))
    }

    /// The memos offered: with words left, a search for them among the memos the options
    /// select; else those memos.
    private static func pickSource<S>(_ reader: inout ArgumentReader<S>) throws(CommandError) -> PickSource {
        var probe = reader
        guard try probe.searchWords().isEmpty else { return .search(try searchArguments(&reader)) }
        reader = probe
        if reader.flag("-F") { throw .usage("'-F' needs a query: the words to find") }
        return .list(try listOptions(reader, filter: filterArguments(reader)))
    }
}

extension PickAction {
    /// The action of a command that takes `-i`, or nil for one that does not.
    init?(_ name: CommandName) {
        switch name {
        case .show: self = .show
        case .edit: self = .edit
        case .delete: self = .delete
        case .tag: self = .tag([])
        default: return nil
        }
    }
}

extension CommandSyntax {
    /// The options that go only with `-i`: its list options and query, but for `edit`, whose
    /// filters and order without `-i` select the memos of a bulk edit (docs/REFERENCE.md,
    /// Editing several memos at once), so only the query's `-F` is the pick's alone there.
    var optionsOnlyForPicking: [OptionSyntax] {
        kind == .language(.edit) ? [OptionSyntax.fixedStrings] : OptionSyntax.picking
    }

    /// The command without `-i` and the options that go only with it, for reading it without:
    /// `edit 3 ls -i` is then a text, as it was before `edit` took `-i`.
    var withoutPicking: CommandSyntax {
        guard option(named: OptionSyntax.interactive.name) != nil else { return self }
        var plain = self
        plain.options.removeAll { option in
            ([OptionSyntax.interactive] + optionsOnlyForPicking).contains { $0.name == option.name }
        }
        return plain
    }
}

extension OptionSyntax {
    static let interactive = OptionSyntax(
        names: ["--interactive", "-i"],
        summary: "Pick the memos with fzf among those the options below (and a QUERY) select; those go with -i only.")
    static let ids = OptionSyntax(
        names: ["--ids"], summary: "Print only the memos' ids, one a line, for pipes (the same under --json).")
    /// `list`'s order and page.
    static let listOrder: [OptionSyntax] = [
        OptionSyntax(names: ["--asc"], summary: "Oldest first."),
        OptionSyntax(names: ["--desc"], summary: "Newest first (the default)."),
        .limit,
        OptionSyntax(names: ["--offset"], valueName: "N", summary: "Skip the first N memos.")
    ]
    static let fixedStrings = OptionSyntax(
        names: ["-F", "--fixed-strings"], summary: "QUERY is a text to find as written, anywhere, as grep -F finds it.")
    /// What selects the memos `pick` offers, with a QUERY; on `show`, `edit`, `delete` and
    /// `tag` these go only with `-i`.
    static let picking: [OptionSyntax] = listOrder + filters + [fixedStrings]
}
