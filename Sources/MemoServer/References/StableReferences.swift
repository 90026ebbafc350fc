import MemoModel
import MemoNotebook

/// Which form a reference takes where the server writes one (docs/REFERENCE.md, References
/// in documents): a document outside the store (a Markdown note, a text file in git) is read
/// on every synced machine, where `#ID` names another memo, so it gets the memo's stable
/// handle, `memo:8e75e0e6`; the store's own texts (a memo's own file, a command file) are read
/// with this store's ids, and keep `#ID`.
extension ReferenceService {
    static let stableLinksTitle = "Make memo links stable"

    /// Whether references written into `document` take the stable form: it is neither a
    /// memo's own file (of this store or another's) nor a command file.
    func writesStableReferences(in document: TextDocument) -> Bool {
        guard !document.isCommandFile else { return false }
        guard let files = memoFiles else { return true }
        return files.id(ofURI: document.uri) == nil && files.otherStoresFolder(ofURI: document.uri) == nil
    }

    /// How `memo` is referenced in `document`: its stable form outside the store, else `#ID`.
    func writtenReference(to memo: Memo, in document: TextDocument) throws(StoreError) -> String {
        writesStableReferences(in: document) ? try notebook.stableReference(toUUID: memo.uuid) : "#\(memo.id)"
    }

    /// The code action "Make memo links stable", on any range of a document outside the
    /// store that has `#ID` references to memos that exist: an edit rewriting each of them to
    /// its memo's handle (a `#ID` that names no memo stays as it is). It is the action's own
    /// `edit`, not a command: the editor applies it at once (eglot and Neovim both do, without
    /// a question), and nothing in the store changes. Nil when there is nothing to rewrite.
    func stableLinksAction(in document: TextDocument, encoding: PositionEncoding) -> JSONValue? {
        guard writesStableReferences(in: document) else { return nil }
        var edits: [JSONValue] = []
        var written: [Int64: String] = [:]
        for found in references(in: document) {
            guard case .id = found.reference, let memo = found.memo else { continue }
            guard let stable = written[memo.id] ?? (try? notebook.stableReference(toUUID: memo.uuid)) else { continue }
            written[memo.id] = stable
            edits.append(
                .object([
                    ("range", encoding.range(line: found.line, found.range, in: found.text)),
                    ("newText", .string(stable))
                ]))
        }
        guard !edits.isEmpty else { return nil }
        return .object([
            ("title", .string(Self.stableLinksTitle)),
            ("kind", .string("refactor.rewrite")),
            ("edit", .object([("changes", .object([(document.uri, .array(edits))]))]))
        ])
    }

    /// The warning on a reference that names no memo here.
    func missingMessage(for reference: MemoReference) -> String {
        notebook.ambiguity(of: reference) ?? "no memo \(reference.missingName)"
    }
}

extension Notebook {
    /// The stable way to write a reference to the memo with `uuid`: its handle (all 32
    /// digits where two uuids here differ only in the last, as a script's counted ones do).
    func stableReference(toUUID uuid: String) throws(StoreError) -> String {
        try handle(ofUUID: uuid).description
    }

    /// Why a handle several memos here share names none of them, and which they are (the
    /// first 3); nil for any other reference.
    func ambiguity(of reference: MemoReference) -> String? {
        guard case .handle(let handle) = reference,
            let sharing = try? memos(uuidStartingWith: handle.digits, limit: 4), sharing.count > 1
        else { return nil }
        let named = sharing.prefix(3).map { "#\($0.id) (\($0.uuid))" }.joined(separator: ", ")
        let count = sharing.count > 3 ? "more than 3" : "\(sharing.count)"
        return "\(handle) names \(count) memos: \(named); write more of the uuid's digits"
    }
}
