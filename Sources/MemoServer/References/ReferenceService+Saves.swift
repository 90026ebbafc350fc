import MemoModel
import MemoNotebook

/// The memos' own files follow the store both ways: a save of one edits its memo, and a
/// change in the store rewrites the files that are not open.
extension ReferenceService {
    /// Notes the version an open memo file's text is based on, when the editor opens it or
    /// changes it. The memo's current text (as stored or as read here) is based on the
    /// current version. Otherwise, opened (or reopened, or reloaded), the text came from the
    /// file, whose base on disk names the version it came from, whether or not the text was
    /// edited outside since: that base, or none known when there is none. Changed, the text is
    /// based on the file's base when it is that version's text (reloaded after the file was
    /// rewritten).
    func noteEditorText(_ text: @autoclosure () -> String, of uri: String, opening: Bool) {
        guard let files = memoFiles, let id = files.id(ofURI: uri) else { return }
        if let current = try? notebook.memo(id: id),
            Self.isText(text(), of: current) || isReadableText(text(), of: current)
        {
            editorBases[uri] = MemoFiles.Base(current)
        } else if opening {
            editorBases[uri] = files.base(of: id)
        } else if let base = files.base(of: id), base.isText(of: text()) {
            editorBases[uri] = base
        }
    }

    /// Whether an editor's `text` is `memo`'s (an editor may have ended it with a line
    /// break): lengths first, so a keystroke that makes another text costs no comparison.
    private static func isText(_ text: String, of memo: Memo) -> Bool {
        let typed = text.utf8, content = memo.content.utf8
        switch typed.count - content.count {
        case 0: return typed.elementsEqual(content)
        case 1: return typed.last == UInt8(ascii: "\n") && typed.dropLast().elementsEqual(content)
        default: return false
        }
    }

    /// `textDocument/didSave` of a memo's own file: the saved text becomes the memo's, as
    /// `edit` does, when the editor's text was based on the memo's current version (for a
    /// file not open here, the version its base file names) or is the current text; else
    /// refused, with an error on the file saying how to get the current text. Another server
    /// may rewrite the file and its base while the editor keeps an older text: the version
    /// the editor's text came from decides, not the file's. The editor wrote the file before
    /// saying so, so a save not applied leaves that version as the file's base on disk: a
    /// reopened file, or a restarted server, knows what the text came from, and going to the
    /// definition again rewrites a file based on an older version. A save that is not applied
    /// always says why. Whether the save was of a memo's file (its diagnostics are to be sent
    /// again).
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
        let base = openText == nil ? files.base(of: id) : editorBases[uri]
        let saved: Memo
        do {
            guard let current = try notebook.memo(id: id) else {
                saveProblems[uri] = "memo #\(id) no longer exists: the save was not applied"
                return true
            }
            // A byte-order mark some editors write is not text (as in every file memo reads);
            // editors end a saved file with a line break; the memo keeps its own ending.
            text = String(TextFile.withoutByteOrderMark(text))
            if text.hasSuffix("\n") && !current.content.hasSuffix("\n") { text.removeLast() }
            if text == current.content || text == readableText(of: current) {
                saved = current
            } else if case .edited(let memo) = try notebook.execute(.editIfStill(id: id, text: text, base: base)) {
                saved = memo
            } else {
                try? files.note(base, of: id)
                saveProblems[uri] =
                    "memo #\(id) changed in the store since this file was written: the save is refused "
                    + "and the store keeps its version. To get the current text, go to the definition of #\(id) again "
                    + "(it rewrites this file) and reload the file, or run 'memo show \(id)'; a save of it is accepted"
                return true
            }
        } catch {
            try? files.note(base, of: id)
            saveProblems[uri] = "the save was not applied: \(errorMessage(error))"
            return true
        }
        do {
            try files.remember(saved)
        } catch {
            saveProblems[uri] = "the save was applied, but its file's base could not be written: \(errorMessage(error))"
        }
        if openText != nil { editorBases[uri] = MemoFiles.Base(saved) }
        return true
    }

    /// Whether the store changed (here or in another process) since the last call.
    func storeChanged() -> Bool {
        guard let stamp = try? notebook.changeStamp(), stamp != referenceStamp else { return false }
        referenceStamp = stamp
        return true
    }

    /// Rewrites or removes the memos' files that are not open, after the store changed (and
    /// when the server starts): this server's files, and those earlier servers left, by their
    /// text only (`MemoFiles.followText`).
    func refreshFiles(isOpen: (String) -> Bool) {
        guard let files = memoFiles else { return }
        for id in files.ids where !isOpen(files.uri(of: id)) {
            guard let memo = try? notebook.memo(id: id) else {
                files.remove(id)
                continue
            }
            _ = try? files.write(memo, text: readableText(of: memo))
        }
        for id in files.leftByEarlierServers where !isOpen(files.uri(of: id)) {
            guard let memo = try? notebook.memo(id: id) else { continue }
            try? files.followText(of: memo, text: readableText(of: memo))
        }
    }
}
