import MemoNotebook
import MemoStore

/// The memos' own files follow the store both ways: a save of one edits its memo, and a
/// change in the store rewrites the files that are not open.
extension ReferenceService {
    /// `textDocument/didSave` of a memo's own file: the saved text becomes the memo's, as
    /// `edit` does; refused, with an error on the file, when the memo changed in the store
    /// since the file was written. Whether the file's diagnostics are to be sent again.
    func saved(_ params: DidSaveParams, openText: String?) -> Bool {
        let uri = params.textDocument.uri
        guard let files = memoFiles, let id = files.id(ofURI: uri) else { return false }
        guard var text = params.text ?? openText else { return false }
        saveProblems[uri] = nil
        do {
            guard let current = try notebook.memo(id: id) else {
                saveProblems[uri] = "memo #\(id) no longer exists: the save was not applied"
                return true
            }
            // Editors end a saved file with a line break; the memo keeps its own ending.
            if text.hasSuffix("\n") && !current.content.hasSuffix("\n") { text.removeLast() }
            if let base = files.base(of: id), base != MemoFiles.Base(current) {
                saveProblems[uri] = "memo #\(id) changed in the store since this file was written: "
                    + "the save is refused and the store keeps its version"
            } else if text != current.content {
                guard case .edited(let memo) = try notebook.execute(.edit(id: id, text: text)) else { return false }
                files.remember(memo)
            } else {
                files.remember(current)
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
            if files.base(of: id) != MemoFiles.Base(memo) { _ = try? files.write(memo) }
        }
    }
}
