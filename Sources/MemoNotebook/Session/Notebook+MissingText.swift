import MemoStore

/// Where a session gets the text of an `add` or `edit` typed without one (docs/REFERENCE.md,
/// Text from an editor or standard input): standard input or the user's editor, for people only.
package protocol MissingTextSource {
    /// The text the user gave, starting from `current` (empty for a new memo).
    func text(current: String) throws -> String
    /// The whole text the user saved, starting from `current`, with nothing dropped: the
    /// buffer of a bulk edit (docs/REFERENCE.md, Editing several memos at once).
    func buffer(current: String) throws -> String
    /// Keeps `text` in a new file only its owner may read, and gives its path: a bulk edit's
    /// buffer that could not be applied, so nothing typed is lost.
    func keep(_ text: String) throws -> String
}

extension Notebook {
    /// The text a command left out, from `missingTextSource`; the usage error of a missing
    /// argument where the session has none (scripts, the server, piped commands).
    func missingText(for command: String, current: String) throws -> String {
        try textSource(for: command).text(current: current)
    }

    /// `missingTextSource`, or the usage error of a missing argument where the session has none.
    func textSource(for command: String) throws -> MissingTextSource {
        guard let missingTextSource else {
            throw CommandError.missingArgument(command == "add" ? "the memo's text" : "the new text", command: command)
        }
        return missingTextSource
    }

    /// `add` without text: the user writes it; an empty one adds nothing and fails, as git
    /// aborts an empty commit message, so `… | memo add && echo saved` tells the truth.
    func addInteractively(tags: [String], date: DateArgument?) throws -> Outcome {
        let text = try missingText(for: "add", current: "")
        if text.allSatisfy(\.isWhitespace) { throw CommandError.invalid("nothing added: the text is empty") }
        return .added(try add(text, tags: tags, date: date))
    }

    /// `edit ID` without text: the user edits the memo's current text; an unchanged result
    /// changes nothing and succeeds, an empty one changes nothing and fails.
    func editInteractively(_ id: Int64) throws -> Outcome {
        let current = try store.existingMemos(ids: [id]).first?.content ?? ""
        let text = try missingText(for: "edit", current: current)
        if text == current { return .unchanged("#\(id) unchanged: the text is the same") }
        if text.allSatisfy(\.isWhitespace) { throw CommandError.invalid("#\(id) unchanged: the new text is empty") }
        return .edited(try store.updateContent(id: id, to: text, at: clock.now()))
    }
}
