import MemoStore

/// The text of `help` and `help COMMAND`, written from the `CommandSyntax` table.
package enum HelpText {
    package static func text(for topic: String?) -> String {
        guard let topic, let syntax = CommandSyntax.named(topic) else { return overview }
        return details(syntax)
    }

    /// Every command with its one-sentence summary.
    static var overview: String {
        let width = CommandSyntax.all.map(\.name.count).max() ?? 0
        return "commands:\n"
            + CommandSyntax.all.map { syntax in
                "  " + syntax.name.paddedWithSpaces(toLength: width + 2) + syntax.summary + "\n"
            }.joined() + "\ntype 'help COMMAND' for its options\n"
    }

    static func details(_ syntax: CommandSyntax) -> String {
        var text = "usage: \(syntax.name) \(syntax.usage)".trimmingTrailingSpaces() + "\n\n\(syntax.summary)\n"
        if !syntax.aliases.isEmpty {
            text += "alias: " + syntax.aliases.joined(separator: ", ") + "\n"
        }
        if !syntax.options.isEmpty {
            let spellings = syntax.options.map(\.spelling)
            let width = spellings.map(\.count).max() ?? 0
            text += "\noptions:\n"
            for (spelling, option) in zip(spellings, syntax.options) {
                text += "  " + spelling.paddedWithSpaces(toLength: width + 2) + option.summary + "\n"
            }
        }
        if let details = syntax.details {
            text += "\n" + details + "\n"
        }
        if syntax.options.contains(where: { $0.valueName == "DATE" }) || syntax.usage == "DATE" {
            text += "\nDATE is \(DateArgument.forms).\n"
        }
        if takesMemoID(syntax) { text += "\n\(memoIDForms)\n" }
        return text
    }

    /// What an ID argument may be: the help of every command that takes one says it.
    package static let memoIDForms =
        "ID is a memo's id in this store (12 or #12), or a form that names it in every store: its handle "
        + "memo:HANDLE (the first 8 or more hex digits of its uuid, as show gives it) or memo:UUID."

    /// Whether the command takes a memo id, as an argument or an option's value.
    package static func takesMemoID(_ syntax: CommandSyntax) -> Bool {
        syntax.options.contains { $0.valueName == "ID" }
            || syntax.usage.split(separator: " ").contains { $0.hasPrefix("ID") }
    }
}

private extension String {
    func trimmingTrailingSpaces() -> String {
        var text = self
        while text.hasSuffix(" ") { text.removeLast() }
        return text
    }
}
