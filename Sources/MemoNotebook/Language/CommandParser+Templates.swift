extension CommandParser {
    /// `add --template NAME [TITLE]`: the template's name, which must stay inside the
    /// templates folder, and the title that fills `{{title}}` (empty when none is given). The
    /// text is the editor's to write, so a heredoc has no place here.
    static func addFromTemplate(
        _ name: Word, title: Word?, heredoc: String?, tags: [String]
    ) throws(CommandError) -> Command {
        guard let template = TemplateName(name.text) else {
            throw .invalid(
                "invalid template name '\(name.text)': the name of a file in the templates folder (no '/', not starting with '.')",
                range: name.range)
        }
        if heredoc != nil {
            throw .usage("'add --template' takes a title on the line, not a heredoc: the text is written in the editor")
        }
        return .addFromTemplate(template, title: title?.text ?? "", tags: tags)
    }
}
