import MemoNotebook

/// The code actions on a selection in any document: save it as a new memo, or move it to
/// one, leaving a reference (`#ID`) in its place. A move needs a client that applies edits
/// (`workspace/applyEdit`): it is offered only to one that says so, and its memo is kept only
/// when the client applies the edit.
final class SelectionActions {
    static let saveCommand = "memo.saveSelection"
    static let moveCommand = "memo.moveSelection"

    let notebook: Notebook
    let outbox: Outbox
    /// Whether the client said, at `initialize`, that it applies edits.
    var clientAppliesEdits = false
    /// The moves whose edit the client has not answered yet, by the request's id: the memo,
    /// and the change that added it.
    private var pendingMoves: [RequestID: (memo: Int64, change: Int64?)] = [:]

    init(notebook: Notebook, outbox: Outbox) {
        self.notebook = notebook
        self.outbox = outbox
    }

    /// `textDocument/codeAction` on a selection: save it as a memo, or move it to one; none
    /// for a selection of white space alone (`selected`), which makes no memo.
    func codeActions(_ params: TextDocumentRangeParams, selected: String) -> JSONValue {
        guard !selected.allSatisfy(\.isWhitespace) else { return .array([]) }
        let selection: JSONValue = .object([("uri", .string(params.textDocument.uri)), ("range", params.range.json)])
        var actions = [("Save selection as memo", Self.saveCommand)]
        if clientAppliesEdits { actions.append(("Move selection to a memo", Self.moveCommand)) }
        return .array(
            actions.map { title, command in
                .object([
                    ("title", .string(title)),
                    ("kind", .string("refactor.extract")),
                    (
                        "command",
                        .object([
                            ("title", .string(title)), ("command", .string(command)), ("arguments", .array([selection]))
                        ])
                    )
                ])
            })
    }

    /// `workspace/executeCommand` of a code action: adds the selection as a memo; a move
    /// then asks the editor (`workspace/applyEdit`) to put `#ID` in its place. The new memo.
    func executeCommand(_ params: ExecuteCommandParams, in documents: DocumentTable) throws(RPCError) -> JSONValue {
        guard [Self.saveCommand, Self.moveCommand].contains(params.command) else {
            throw .invalidParams("invalid params: unknown command '\(params.command)'")
        }
        guard let selection = params.arguments?.first else {
            throw .invalidParams("invalid params: the command needs the selection")
        }
        if params.command == Self.moveCommand, !clientAppliesEdits {
            throw .invalidParams(
                "invalid params: this client does not apply edits (workspace.applyEdit), which a move needs; "
                    + "'\(Self.saveCommand)' saves the selection as a memo")
        }
        let document = try documents.document(selection.uri)
        let text = document.text(in: selection.range, encoding: documents.encoding)
        guard !text.allSatisfy(\.isWhitespace) else { throw .invalidParams("invalid params: the selection is empty") }
        let outcome = try RPCError.answering { try notebook.execute(.add(text: text, tags: [])) }
        guard case .added(let memo) = outcome else { return .null }
        if params.command == Self.moveCommand {
            let request = outbox.request(
                "workspace/applyEdit",
                params: .object([
                    ("label", .string("Move selection to a memo")),
                    (
                        "edit",
                        .object([
                            (
                                "changes",
                                .object([
                                    (
                                        selection.uri,
                                        .array([
                                            .object([
                                                ("range", selection.range.json), ("newText", .string("#\(memo.id)"))
                                            ])
                                        ])
                                    )
                                ])
                            )
                        ])
                    )
                ]))
            pendingMoves[request] = (memo.id, notebook.newestOwnChange)
        }
        return JSONRenderer.json(memo)
    }

    /// The client's answer to a request of the server's: for a move whose edit the client did
    /// not apply (`applied: false`, or an error), the memo's add is taken back (withdrawn, so
    /// no undo here brings it back) and the user told, so a move never becomes a copy.
    func received(_ id: RequestID, result: JSONValue?) {
        guard let move = pendingMoves.removeValue(forKey: id) else { return }
        guard result?[member: "applied"] != .bool(true) else { return }
        let reason = result?[member: "failureReason"].flatMap { if case .string(let text) = $0 { text } else { nil } }
        let kept = !takeBack(move)
        let message =
            "The editor did not apply the edit that moves the selection to memo #\(move.memo)"
            + (reason.map { " (\($0))" } ?? "")
            + (kept ? "; the memo is kept." : ", so the memo was not kept; the selection is as it was.")
        outbox.notify("window/showMessage", params: .object([("type", .integer(2)), ("message", .string(message))]))
    }

    /// At shutdown, moves the client never answered did not happen: their memos are taken back.
    func takeBackUnansweredMoves() {
        for move in pendingMoves.values.sorted(by: { $0.memo > $1.memo }) { _ = takeBack(move) }
        pendingMoves = [:]
    }

    /// Withdraws the move's add, or, when a later change to the memo forbids that, deletes
    /// the memo; whether it is gone.
    private func takeBack(_ move: (memo: Int64, change: Int64?)) -> Bool {
        if let change = move.change, (try? notebook.execute(.withdraw(change: change))) != nil { return true }
        return (try? notebook.execute(.delete(ids: [.id(move.memo)]))) != nil
    }
}
