import MemoNotebook

/// The memos' own files follow the store both ways: a save of one edits its memo, and a
/// change in the store rewrites the files that are not open.
extension ReferenceService {
    /// Notes the version an open memo file's text is based on, when the editor opens it or
    /// changes it: the version of the file's base when the text is that version's (opened, or
    /// reloaded), else, on opening, none known.
    func noteEditorText(_ text: @autoclosure () -> String, of uri: String, opening: Bool) {
        guard let files = memoFiles, let id = files.id(ofURI: uri) else { return }
        if let base = files.base(of: id), base.isText(of: text()) || isReadableText(text(), ofVersion: base, id: id) {
            editorBases[uri] = base
        } else if opening {
            editorBases[uri] = nil
        }
    }

    /// `textDocument/didSave` of a memo's own file: the saved text becomes the memo's, as
    /// `edit` does, when the editor's text was based on the memo's current version (for a
    /// file not open here, the version its base file names) or is the current text; else
    /// refused, with an error on the file saying how to get the current text. Another server
    /// may rewrite the file and its base while the editor keeps an older text: the version
    /// the editor's text came from decides, not the file's. A save that is not applied always
    /// says why. Whether the save was of a memo's file (its diagnostics are to be sent again).
    func saved(_ params: DidSaveParams, openText: String?) -> Bool {
        let uri = params.textDocument.uri
        guard let files = memoFiles else { return false }
        guard let id = files.id(ofURI: uri) else {
            guard let other = files.otherStoresFolder(ofURI: uri) else { return false }
            saveProblems[uri] =
                "this file belongs to another memo store (its folder is \(other)), not to "
                + "\(notebook.storeLocation.displayPath), which this server serves: the save was not applied here"
            return true
        }
        saveProblems[uri] = nil
        guard var text = params.text ?? openText ?? files.savedText(ofURI: uri) else {
            saveProblems[uri] = "the saved text of memo #\(id)'s file could not be read: the save was not applied"
            return true
        }
        do {
            guard let current = try notebook.memo(id: id) else {
                saveProblems[uri] = "memo #\(id) no longer exists: the save was not applied"
                return true
            }
            // Editors end a saved file with a line break; the memo keeps its own ending.
            if text.hasSuffix("\n") && !current.content.hasSuffix("\n") { text.removeLast() }
            let base = openText == nil ? files.base(of: id) : editorBases[uri]
            if text == current.content || text == readableText(of: current) {
                try files.remember(current)
                if openText != nil { editorBases[uri] = MemoFiles.Base(current) }
            } else if case .edited(let memo) = try notebook.execute(.editIfStill(id: id, text: text, base: base)) {
                try files.remember(memo)
                if openText != nil { editorBases[uri] = MemoFiles.Base(memo) }
            } else {
                saveProblems[uri] =
                    "memo #\(id) changed in the store since this file was written: the save is refused "
                    + "and the store keeps its version. To get the current text, go to the definition of #\(id) again "
                    + "(it rewrites this file) and reload the file, or run 'memo show \(id)'; a save of it is accepted"
            }
        } catch {
            saveProblems[uri] = "the save was not applied: \(errorMessage(error))"
        }
        return true
    }

    /// Whether the store changed (here or in another process) since the last call.
    func storeChanged() -> Bool {
        guard let stamp = try? notebook.changeStamp(), stamp != referenceStamp else { return false }
        referenceStamp = stamp
        return true
    }

    /// Rewrites or removes the memos' files that are not open, after the store changed.
    func refreshFiles(isOpen: (String) -> Bool) {
        guard let files = memoFiles else { return }
        for id in files.ids where !isOpen(files.uri(of: id)) {
            guard let memo = try? notebook.memo(id: id) else {
                files.remove(id)
                continue
            }
            _ = try? files.write(memo, text: readableText(of: memo))
        }
    }
}
