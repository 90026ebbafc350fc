/// The parsing of `edit` with filters and no id, and of `tag --rename OLD NEW`.
extension CommandParser {
    /// The options that narrow the memos of `edit` without an id.
    private static let narrowingOptions = [
        "--tag", "--since", "--until", "--on", "--links-to", "--linked-from",
        "--orphan", "-n"
    ]
    /// Those, and the order of the buffer.
    private static let selectionOptions = narrowingOptions + ["--asc", "--desc", "--offset"]

    /// `edit [filters] [-n N] [--asc]`: every memo they select, in one buffer. A filter or
    /// `-n` is needed: a bare `edit` (or `edit --asc`) is still a missing id, not every memo of the store.
    static func bulkEdit<S>(_ reader: ArgumentReader<S>, heredoc: String?) throws(CommandError) -> ParsedLine {
        guard narrowingOptions.contains(where: { reader.flag($0) }) else {
            throw .missingArgument("a memo id, or filters that select memos (edit --tag TAG)", command: "edit")
        }
        if heredoc != nil { throw .usage("'edit' without an id takes no heredoc: it opens the editor") }
        if reader.flag("--date") { throw .usage("'--date' moves one memo: edit ID --date DATE") }
        let arguments = try listOptions(reader, filter: try filterArguments(reader))
        return .command(.editMany(.listed(arguments)))
    }

    /// Refuses filters given to `edit ID` before its id: they select the memos of `edit`
    /// without an id.
    static func refuseSelection<S>(_ reader: ArgumentReader<S>) throws(CommandError) {
        guard let option = selectionOptions.first(where: { reader.flag($0) }) else { return }
        throw selectionRefused(option)
    }

    /// Why each option that selects the memos of `edit` without an id is refused after an id.
    static var selectionRefusals: [String: String] {
        Dictionary(uniqueKeysWithValues: selectionOptions.map { ($0, selectionRefused($0).message) })
    }

    private static func selectionRefused(_ option: String, range: Range<String.Index>? = nil) -> CommandError {
        .usage("'edit ID' takes no '\(option)': filters select the memos of 'edit' without an id", range: range)
    }

    /// `tag --rename OLD NEW`, or nil for `tag ID TAG...`. Read on a copy of the reader, so the
    /// other form reads its arguments afresh.
    static func renameTag<S>(_ reader: ArgumentReader<S>) throws(CommandError) -> Command? {
        var lookahead = reader
        let arguments = try lookahead.remainingArguments()
        guard lookahead.flag("--rename") else { return nil }
        guard arguments.count >= 2 else {
            throw .missingArgument("the tag to rename and its new name (tag --rename OLD NEW)", command: "tag")
        }
        if arguments.count > 2 { throw .unexpected(arguments[2], command: "tag --rename") }
        return .renameTag(from: try tagName(arguments[0]), to: try tagName(arguments[1]))
    }
}

extension CommandSyntax {
    /// `edit` without the options that select the memos of a bulk edit, for reading `edit ID
    /// TEXT`: after the id they are words of the text (`edit 3 use -n 5`), as before `edit`
    /// took them.
    var withoutSelection: CommandSyntax {
        var plain = withoutPicking
        plain.options.removeAll { option in OptionSyntax.picking.contains { $0.name == option.name } }
        return plain
    }
}
