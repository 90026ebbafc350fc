import MemoModel
import MemoNotebook

/// `textDocument/rename` on a memo reference renames the memo, as zk renames a note: its
/// title (its first line that is not blank) becomes the new name, through the same edit
/// `edit` makes (one change in the history, which `undo` takes back). References name the
/// memo by id, so no document changes but the memo's own file, which the editor is told to
/// update when it has it open, and which follows the store otherwise.
extension ReferenceService {
    /// `textDocument/prepareRename`: the reference under the cursor and its memo's title as
    /// the name to edit; null where there is no reference (nothing to rename here).
    func prepareRename(
        in document: TextDocument, at position: Position, encoding: PositionEncoding
    )
        throws(RPCError) -> JSONValue
    {
        guard let (line, found) = reference(under: position, in: document, encoding: encoding) else { return .null }
        let memo = try renamedMemo(found, on: line, in: document)
        return .object([
            ("range", encoding.range(line: position.line, found.range, in: line)),
            ("placeholder", .string(MemoContent.title(of: memo.content)))
        ])
    }

    /// `textDocument/rename`: edits the memo's title; the `WorkspaceEdit` that shows the new
    /// title in its own file where the editor has it open (`openDocument`), else none. Refused
    /// while that open file's title is not the memo's (the user changed it and did not save).
    /// With `versionedEdits`, the edit names the version of the file it was made for: an
    /// editor whose text moved on since (a change it has not sent yet) does not apply it over
    /// what the user typed.
    func rename(
        _ params: RenameParams, in document: TextDocument, openDocument: (String) -> TextDocument?,
        encoding: PositionEncoding, versionedEdits: Bool = false
    ) throws(RPCError) -> JSONValue {
        let name = params.newName
        guard !name.allSatisfy(\.isWhitespace) else { throw .invalidParams("a memo's title cannot be empty") }
        guard !name.contains(where: \.isNewline) else {
            throw .invalidParams("a memo's title is one line: the new name holds a line break")
        }
        guard let (line, found) = reference(under: params.position, in: document, encoding: encoding) else {
            throw .invalidParams("there is no memo reference here to rename")
        }
        let renamed = try renamedMemo(found, on: line, in: document)
        let uri = memoFiles?.uri(of: renamed.id), file = uri.flatMap(openDocument)
        // The editor's title line gets the new title: it must be the title the store has,
        // or the rename would replace a line the user typed and not saved.
        if let file, file.titleLine.flatMap(file.line) ?? "" != MemoContent.title(of: readableText(of: renamed)) {
            throw .invalidParams(
                "memo #\(renamed.id)'s file has unsaved changes to its title: save or undo them first")
        }
        var memo = renamed, content = renamed.content
        if let title = Self.titleRange(in: content), content[title] != name {
            content.replaceSubrange(title, with: name)
            let outcome = try RPCError.answering { try notebook.execute(.edit(id: .id(memo.id), text: content)) }
            if case .edited(let edited) = outcome { memo = edited }
        }
        guard let files = memoFiles, let uri else { return .object([("changes", .object([]))]) }
        guard let file else {
            if files.savedText(ofURI: uri) != nil { _ = try? files.write(memo) }
            return .object([("changes", .object([]))])
        }
        // An editor's text based on the version renamed is, with the new title put in it,
        // based on the renamed memo: a save of it, with the edits it holds, is not stale.
        if editorBases[uri] == MemoFiles.Base(renamed) { editorBases[uri] = MemoFiles.Base(memo) }
        guard let titleLine = file.titleLine, let text = file.line(titleLine), text != name else {
            return .object([("changes", .object([]))])
        }
        let edit: JSONValue = .object([
            ("range", encoding.range(line: titleLine, text.startIndex..<text.endIndex, in: text)),
            ("newText", .string(name))
        ])
        guard versionedEdits, let version = file.version else {
            return .object([("changes", .object([(uri, .array([edit]))]))])
        }
        let versioned: JSONValue = .object([("uri", .string(uri)), ("version", .integer(Int64(version)))])
        return .object([
            ("documentChanges", .array([.object([("textDocument", versioned), ("edits", .array([edit]))])]))
        ])
    }

    /// The reference under `position` and the line that holds it.
    func reference(
        under position: Position, in document: TextDocument, encoding: PositionEncoding
    )
        -> (String, MemoReference.Found)?
    {
        guard let line = document.line(position.line),
            let found = MemoReference.at(
                encoding.index(at: position.character, in: line), among: document.references(onLine: position.line))
        else { return nil }
        return (line, found)
    }

    private func renamedMemo(
        _ found: MemoReference.Found, on line: String, in document: TextDocument
    )
        throws(RPCError) -> Memo
    {
        guard let memo = try RPCError.answering({ try memo(named: found, on: line, in: document) }) else {
            throw .invalidParams("no memo \(found.reference.missingName) to rename")
        }
        return memo
    }

    /// The range of a text's title: its first line that is not blank, without its line break.
    static func titleRange(in content: String) -> Swift.Range<String.Index>? {
        MemoContent.lines(of: content).first { !$0.allSatisfy(\.isWhitespace) }
            .map { $0.startIndex..<$0.endIndex }
    }
}
