import MemoNotebook

/// The manual page `memo.1`, in roff, made from the same text as `memo --help` and
/// `help COMMAND` (`ProgramHelp` and the `CommandSyntax` table), so the two cannot drift.
/// `scripts/install` writes it with `memo __manual`.
enum ManualPage {
    static var text: String {
        var page = ".TH MEMO 1 \"\" \"memo \(memoVersion)\" \"User Commands\"\n"
        page += ".SH NAME\nmemo \\- \(escaped(ProgramHelp.summary))\n"
        page += ".SH SYNOPSIS\n" + ProgramHelp.synopsis.map { ".br\n\\fBmemo\\fR " + escaped($0) + "\n" }.joined()
        page += ".SH DESCRIPTION\n" + paragraphs(ProgramHelp.description)
        page += ".SH OPTIONS\n" + ProgramHelp.options.map(item).joined()
        page += ".SH COMMANDS\n" + paragraphs(ProgramHelp.languageIntroduction)
        page += CommandSyntax.all.map(command).joined()
        page += ".SH DATES\n" + paragraphs(ProgramHelp.dates)
        page += ".SH ENVIRONMENT\n" + ProgramHelp.environment.map(item).joined()
        page += ".SH FILES\n" + ProgramHelp.files.map(item).joined()
        page +=
            ".SH EXIT STATUS\n"
            + ExitStatus.allCases.map { item(ProgramHelp.Entry(term: String($0.rawValue), meaning: $0.meaning)) }
            .joined()
        page += ".SH SEE ALSO\n\\fBsqlite3\\fR(1), \\fBless\\fR(1)\n"
        return page
    }

    /// One command of the language: its usage, summary, aliases, options and details.
    private static func command(_ syntax: CommandSyntax) -> String {
        var text = ".TP\n\\fB\(escaped(syntax.name))\\fR \(escaped(syntax.usage))\n\(escaped(syntax.summary))\n"
        if !syntax.aliases.isEmpty { text += ".br\nAlias: \(escaped(syntax.aliases.joined(separator: ", ")))\n" }
        if !syntax.options.isEmpty { text += ".RS\n" + syntax.options.map(item).joined() + ".RE\n" }
        if let details = syntax.details { text += ".IP\n" + escaped(details) + "\n" }
        if syntax.options.contains(where: { $0.valueName == "DATE" }) || syntax.usage == "DATE" {
            text += ".IP\nDATE: see DATES.\n"
        }
        if HelpText.takesMemoID(syntax) { text += ".IP\n" + escaped(HelpText.memoIDForms) + "\n" }
        return text
    }

    private static func item(_ option: OptionSyntax) -> String {
        let names = option.names.map { "\\fB\(escaped($0))\\fR" }.joined(separator: ", ")
        return ".TP\n" + names + (option.valueName.map { " \\fI\(escaped($0))\\fR" } ?? "") + "\n"
            + escaped(option.summary) + "\n"
    }

    private static func item(_ entry: ProgramHelp.Entry) -> String {
        ".TP\n\\fB\(escaped(entry.term))\\fR\n\(escaped(entry.meaning))\n"
    }

    private static func paragraphs(_ text: String) -> String {
        ".PP\n" + escaped(text) + "\n"
    }

    /// Text safe in roff: backslashes and hyphens escaped, no line starting with a control
    /// character, and characters beyond ASCII as `\[uXXXX]`, since troff reads its input as
    /// Latin-1 bytes (`ß` would be two characters, the second invalid).
    private static func escaped(_ text: String) -> String {
        var escaped = ""
        for scalar in text.unicodeScalars {
            switch scalar {
            case "\\": escaped += "\\e"
            case "-": escaped += "\\-"
            case _ where scalar.isASCII: escaped.unicodeScalars.append(scalar)
            default:
                let hex = String(scalar.value, radix: 16, uppercase: true)
                escaped += "\\[u" + String(repeating: "0", count: max(0, 4 - hex.count)) + hex + "]"
            }
        }
        return escaped.split(separator: "\n", omittingEmptySubsequences: false)
            .map { $0.hasPrefix(".") || $0.hasPrefix("'") ? "\\&" + $0 : String($0) }
            .joined(separator: "\n")
    }
}
