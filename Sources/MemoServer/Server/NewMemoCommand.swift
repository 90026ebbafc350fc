import MemoNotebook

/// `workspace/executeCommand` `memo.new`: adds a memo (its text the command's argument, else
/// "New memo") and opens its own file in the editor, as zk's new-note command does: through
/// `window/showDocument` where the client supports it, else a message naming the file. The
/// answer is the memo, as `memo/add` gives it, with its file's `uri`. Refused, adding nothing,
/// on an encrypted store, whose memos have no files.
struct NewMemoCommand {
    static let name = "memo.new"
    static let defaultText = "New memo"

    let references: ReferenceService
    let outbox: Outbox
    /// Whether the client opens documents the server asks it to (`window.showDocument`).
    let clientShowsDocuments: Bool

    func run(_ params: ExecuteCommandParams) throws(RPCError) -> JSONValue {
        if references.notebook.isStoreSealed {
            throw references.sealedStoreRefusal(
                "memo.new adds a memo and opens its own file, and a memo of an encrypted store has none; "
                    + "nothing was added ('Save selection as memo' adds one)")
        }
        let text = params.texts?.first ?? Self.defaultText
        guard !text.allSatisfy(\.isWhitespace) else { throw .invalidParams("invalid params: the memo's text is empty") }
        let outcome = try RPCError.answering { try references.notebook.execute(.add(text: text, tags: [])) }
        guard case .added(let memo) = outcome else { return .null }
        let uri = try references.fileURI(of: memo)
        if clientShowsDocuments {
            outbox.request("window/showDocument", params: .object([("uri", .string(uri)), ("takeFocus", .bool(true))]))
        } else {
            let path = references.memoFiles?.path(of: memo.id) ?? uri
            outbox.notify(
                "window/showMessage",
                params: .object([
                    ("type", .integer(3)), ("message", .string("Added memo #\(memo.id); its file is \(path)"))
                ]))
        }
        guard case .object(var fields) = JSONRenderer.json(memo) else { return JSONRenderer.json(memo) }
        fields.append(("uri", .string(uri)))
        return .object(fields)
    }
}
