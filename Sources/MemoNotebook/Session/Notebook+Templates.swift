import MemoStore

/// `add --template NAME` and `today` (docs/REFERENCE.md, Templates; The daily memo): a text
/// written in the user's editor, started from a template filled in at this session's clock and
/// display time zone.
extension Notebook {
    /// `add --template NAME [TITLE]`: a template saved unchanged adds nothing and fails, as an
    /// empty text does (`addInteractively`), so `memo add --template x && echo saved` tells the truth.
    func addFromTemplate(_ name: TemplateName, title: String, tags: [String]) throws -> Outcome {
        let editor = try editorSource(for: "add --template", instead: "give the text: add TEXT")
        guard let templates else { throw CommandError.invalid("no templates folder: set HOME or XDG_CONFIG_HOME") }
        guard let template = try templates.text(of: name) else { throw templates.missing(name) }
        return .added(try addWritten(from: filled(template, title: title), by: editor, tags: tags, template: name))
    }

    /// `today`: this day's daily memo in the editor. The first of the day is made from the
    /// `daily` template when there is one, else from an empty text, and tagged `@daily`; later
    /// the same day the editor opens on it again, as `edit ID` does. Text piped in is added
    /// after what the editor would open on, as a journal's line: it replaces nothing.
    func today() throws -> Outcome {
        let editor = try editorSource(for: "today", instead: "add --tag daily TEXT, or edit ID TEXT")
        if let daily = try todaysDailyMemo() { return try editInteractively(daily.id, appendingPipedText: true) }
        let template = try templates?.text(of: .daily)
        let start = try filled(template ?? "", title: "")
        return .added(
            try addWritten(
                from: start, by: editor, tags: [Self.dailyTag], template: template == nil ? nil : .daily,
                appendingPipedText: true))
    }

    /// The tag that marks a daily memo.
    private static let dailyTag = "daily"

    /// The first memo tagged `@daily` inserted today in the display time zone, or nil.
    private func todaysDailyMemo() throws -> Memo? {
        var arguments = ListArguments(filter: FilterArguments(tags: [Self.dailyTag], on: .today))
        arguments.order = .oldestFirst
        arguments.limit = 1
        return try store.memos(query(for: arguments)).next()
    }

    /// A template filled in now, as the editor starts on it: without one final line break,
    /// which the editor's file gets back and the text it gives loses.
    private func filled(_ template: String, title: String) throws(StoreError) -> String {
        var text = TemplateText(at: clock.current, in: displayTime, title: title).fill(template)
        if text.hasSuffix("\n") { text.removeLast() }
        if !text.allSatisfy(\.isWhitespace) { try MemoContent.validate(text) }
        return text
    }

    /// Adds what the user wrote in the editor started on `start` (or piped, added after it with
    /// `appendingPipedText`); nothing when they saved it unchanged (`template` names the
    /// template it came from) or empty.
    private func addWritten(
        from start: String, by editor: MissingTextSource, tags: [String], template: TemplateName?,
        appendingPipedText: Bool = false
    ) throws -> Memo {
        try editor.withText(startingFrom: start, appendingPipedText: appendingPipedText) { text in
            if text.allSatisfy(\.isWhitespace) { throw CommandError.invalid("nothing added: the text is empty") }
            if text == start, let template {
                throw CommandError.invalid("nothing added: the template '\(template.text)' was saved unchanged")
            }
            return try add(text, tags: tags)
        }
    }
}
