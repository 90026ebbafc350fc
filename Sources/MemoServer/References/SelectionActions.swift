import MemoNotebook

/// The code actions on a selection in any document: save it as a new memo, or move it to
/// one, leaving a reference in its place (`memo:HANDLE` outside the store, `#ID` in the
/// store's own texts). A move needs a client that applies edits (`workspace/applyEdit`): it
/// is offered only to one that says so, its memo is kept only when the client applies the
/// edit, and its `workspace/executeCommand` is answered once the client answered the edit.
final class SelectionActions {
    static let saveCommand = "memo.saveSelection"
    static let moveCommand = "memo.moveSelection"

    /// A move whose edit the client has not answered yet: the memo, the change that added
    /// it, and the `workspace/executeCommand` request to answer with it.
    private struct PendingMove {
        let memo: Int64
        let change: Int64?
        let command: RequestID
        let answer: JSONValue
    }

    let notebook: Notebook
    let outbox: Outbox
    let references: ReferenceService
    /// Whether the client said, at `initialize`, that it applies edits.
    var clientAppliesEdits = false
    /// The moves whose edit the client has not answered yet, by the edit request's id.
    private var pendingMoves: [RequestID: PendingMove] = [:]

    init(notebook: Notebook, outbox: Outbox, references: ReferenceService) {
        self.notebook = notebook
        self.outbox = outbox
        self.references = references
    }

    /// `textDocument/codeAction` on a selection: save it as a memo, or move it to one; none
    /// for a selection of white space alone (`selected`), which makes no memo.
    func codeActions(_ params: TextDocumentRangeParams, selected: String) -> [JSONValue] {
        guard !selected.allSatisfy(\.isWhitespace) else { return [] }
        let selection: JSONValue = .object([("uri", .string(params.textDocument.uri)), ("range", params.range.json)])
        var actions = [("Save selection as memo", Self.saveCommand)]
        if clientAppliesEdits { actions.append(("Move selection to a memo", Self.moveCommand)) }
        return actions.map { title, command in
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
        }
    }

    /// `workspace/executeCommand` of a code action (request `id`): adds the selection as a
    /// memo; the new memo. A move then asks the editor (`workspace/applyEdit`) to put a
    /// reference to it in the selection's place, and is answered (nil here) only when the
    /// editor has answered that: eglot asks its user first and reads what comes meanwhile
    /// inside its question, where an answer or diagnostics arriving made it lose the answer
    /// it waited for (a 10 s freeze). Notifications wait for the editor's answer too.
    func executeCommand(
        _ params: ExecuteCommandParams, id: RequestID, in documents: DocumentTable
    ) throws(RPCError) -> JSONValue? {
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
        guard params.command == Self.moveCommand else { return JSONRenderer.json(memo) }
        let reference = try RPCError.answering { try references.writtenReference(to: memo, in: document) }
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
                                            ("range", selection.range.json), ("newText", .string(reference))
                                        ])
                                    ])
                                )
                            ])
                        )
                    ])
                )
            ]), holdingNotifications: true)
        pendingMoves[request] = PendingMove(
            memo: memo.id, change: notebook.newestOwnChange, command: id, answer: JSONRenderer.json(memo))
        return nil
    }

    /// The client's answer to a request of the server's: a move's `workspace/executeCommand`
    /// is answered now, with its memo. For a move whose edit the client did not apply
    /// (`applied: false`, or an error), the memo's add is taken back first (withdrawn, so no
    /// undo here brings it back; the answer is then null) and the user told, so a move never
    /// becomes a copy.
    func received(_ id: RequestID, result: JSONValue?) {
        guard let move = pendingMoves.removeValue(forKey: id) else { return }
        guard result?[member: "applied"] != .bool(true) else {
            return outbox.answer(Outbox.response(id: move.command, result: move.answer))
        }
        let reason = result?[member: "failureReason"].flatMap { if case .string(let text) = $0 { text } else { nil } }
        let kept = !takeBack(move)
        outbox.answer(Outbox.response(id: move.command, result: kept ? move.answer : .null))
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
    private func takeBack(_ move: PendingMove) -> Bool {
        if let change = move.change, (try? notebook.execute(.withdraw(change: change))) != nil { return true }
        return (try? notebook.execute(.delete(ids: [.id(move.memo)]))) != nil
    }
}
