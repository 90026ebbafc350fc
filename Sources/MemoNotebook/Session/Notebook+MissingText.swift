import MemoStore

/// Where a session gets the text of an `add` or `edit` typed without one (docs/REFERENCE.md,
/// Text from an editor or standard input): standard input or the user's editor, for people only.
package protocol MissingTextSource {
    /// What the user saved, starting from `current` (empty for a new memo), as bytes. As one
    /// memo's text (`asOneText`), a text not empty is given with a line break after it, as a
    /// text file's last line has, which the reader drops again.
    func save(startingFrom current: String, asOneText: Bool) throws -> SavedText
}

/// The bytes a person saved for a command, until the command has used them: what it cannot
/// use (not UTF-8, refused, a store error) is kept in a private file, so nothing typed is lost.
package struct SavedText {
    package var bytes: [UInt8]
    /// Whether they came from standard input rather than from an editor started on the text.
    package var isFromStandardInput: Bool
    /// Keeps the bytes, exactly, in a file only its owner may read; its path.
    package var keep: () throws -> String
    /// Lets them go (removes the editor's file).
    package var discard: () -> Void

    package init(
        bytes: [UInt8], isFromStandardInput: Bool, keep: @escaping () throws -> String,
        discard: @escaping () -> Void = {}
    ) {
        self.bytes = bytes
        self.isFromStandardInput = isFromStandardInput
        self.keep = keep
        self.discard = discard
    }
}

extension MissingTextSource {
    /// Gives `use` what the user saved, starting from `current`, as text (a leading byte-order
    /// mark dropped; as one memo's text, without the one trailing line break that editors and
    /// `echo` add), and whether it came from standard input. When it is not UTF-8 or `use`
    /// throws, the saved bytes are kept and the error names their file, unless they hold
    /// nothing to lose: a blank text, or `current` itself.
    func withSaved<Result>(
        startingFrom current: String, asOneText: Bool = false,
        _ use: (String, _ fromStandardInput: Bool) throws -> Result
    ) throws -> Result {
        let saved = try save(startingFrom: current, asOneText: asOneText)
        var text: String?
        do {
            guard let decoded = String(validating: saved.bytes, as: UTF8.self) else {
                throw CommandError.invalid("the saved text is not valid UTF-8")
            }
            let whole = String(TextFile.withoutByteOrderMark(decoded))
            // Saved as it was started, a text is what it was, whatever CRs end it.
            let unchanged = asOneText && !current.isEmpty && whole == current + "\n"
            let given = unchanged ? current : asOneText ? Self.droppingOneLineBreak(whole) : whole
            text = given
            let result = try use(given, saved.isFromStandardInput)
            saved.discard()
            return result
        } catch {
            if let text, text.allSatisfy(\.isWhitespace) || text == current {
                saved.discard()
                throw error
            }
            let kept: String
            do {
                kept = "the edited text is kept in \(try saved.keep())"
            } catch let failure {
                saved.discard()
                kept = "the edited text could not be kept: \(failure)"
            }
            throw CommandError.invalid("\(error); nothing changed: \(kept)")
        }
    }

    /// `withSaved` for one memo's text. With `appendingPipedText` (`today`), text from standard
    /// input goes after `current`, on a line of its own, rather than in its place.
    func withText<Result>(
        startingFrom current: String, appendingPipedText: Bool = false, _ use: (String) throws -> Result
    ) throws -> Result {
        try withSaved(startingFrom: current, asOneText: true) { text, piped in
            // Nothing piped adds nothing: the text is as empty as it came.
            guard appendingPipedText, piped, !current.isEmpty, !text.allSatisfy(\.isWhitespace) else {
                return try use(text)
            }
            return try use(current + (current.hasSuffix("\n") ? "" : "\n") + text)
        }
    }

    private static func droppingOneLineBreak(_ text: String) -> String {
        if text.hasSuffix("\r\n") || text.hasSuffix("\n") { return String(text.dropLast()) }
        return text
    }
}

extension Notebook {
    /// `missingTextSource`, or the usage error of a missing argument where the session has none.
    func textSource(for command: String) throws -> MissingTextSource {
        guard let missingTextSource else {
            throw CommandError.missingArgument(command == "add" ? "the memo's text" : "the new text", command: command)
        }
        return missingTextSource
    }

    /// The session's editor, or the usage error of a text left out where there is none
    /// (scripts, the server, piped commands): `instead` says what to write there.
    func editorSource(for command: String, instead: String) throws(CommandError) -> MissingTextSource {
        guard let missingTextSource else {
            throw .usage("'\(command)' needs an editor, which scripts and the server do not have: \(instead)")
        }
        return missingTextSource
    }

    /// `add` without text: the user writes it; an empty one adds nothing and fails, as git
    /// aborts an empty commit message, so `… | memo add && echo saved` tells the truth.
    func addInteractively(tags: [String], date: DateArgument?) throws -> Outcome {
        try textSource(for: "add").withText(startingFrom: "") { text in
            if text.allSatisfy(\.isWhitespace) { throw CommandError.invalid("nothing added: the text is empty") }
            return .added(try add(text, tags: tags, date: date))
        }
    }

    /// `edit ID` without text: the user edits the memo's current text; an unchanged result
    /// changes nothing and succeeds, an empty one changes nothing and fails.
    /// `appendingPipedText`: text from standard input is added to it (`today`).
    func editInteractively(_ id: Int64, appendingPipedText: Bool = false) throws -> Outcome {
        // What the person reads (`show`) is what they edit: each `#ID` link by its memo's id here.
        let current = try store.readableText(of: store.existingMemo(id: id))
        return try textSource(for: "edit").withText(startingFrom: current, appendingPipedText: appendingPipedText) {
            text in
            if text == current { return .unchanged("#\(id) unchanged: the text is the same") }
            if text.allSatisfy(\.isWhitespace) { throw CommandError.invalid("#\(id) unchanged: the new text is empty") }
            return .edited(try store.updateContent(id: id, to: text, reading: .asReadHere, at: clock.now()))
        }
    }
}
