import MemoNotebook

/// The code actions on a selection in any document: save it as a new memo, or move it to
/// one, leaving a reference (`#ID`) in its place.
struct SelectionActions {
    static let saveCommand = "memo.saveSelection"
    static let moveCommand = "memo.moveSelection"

    let notebook: Notebook
    let outbox: Outbox

    /// `textDocument/codeAction` on a selection: save it as a memo, or move it to one.
    func codeActions(_ params: CodeActionParams) -> JSONValue {
        guard params.range.start != params.range.end else { return .array([]) }
        let selection: JSONValue = .object([("uri", .string(params.textDocument.uri)), ("range", params.range.json)])
        return .array([
            ("Save selection as memo", Self.saveCommand),
            ("Move selection to a memo", Self.moveCommand),
        ].map { title, command in
            .object([
                ("title", .string(title)),
                ("kind", .string("refactor.extract")),
                ("command", .object([("title", .string(title)), ("command", .string(command)), ("arguments", .array([selection]))])),
            ])
        })
    }

    /// `workspace/executeCommand` of a code action: adds the selection as a memo; a move
    /// then asks the editor (`workspace/applyEdit`) to put `#ID` in its place. The new memo.
    func executeCommand(_ params: ExecuteCommandParams, in documents: DocumentTable) throws(RPCError) -> JSONValue {
        guard [Self.saveCommand, Self.moveCommand].contains(params.command) else {
            throw .invalidParams("invalid params: unknown command '\(params.command)'")
        }
        guard let selection = params.arguments?.first else { throw .invalidParams("invalid params: the command needs the selection") }
        let document = try documents.document(selection.uri)
        let text = document.text(in: selection.range, encoding: documents.encoding)
        guard !text.allSatisfy(\.isWhitespace) else { throw .invalidParams("invalid params: the selection is empty") }
        let outcome = try RPCError.answering { try notebook.execute(.add(text: text, tags: [])) }
        guard case .added(let memo) = outcome else { return .null }
        if params.command == Self.moveCommand {
            outbox.request("workspace/applyEdit", params: .object([
                ("label", .string("Move selection to a memo")),
                ("edit", .object([("changes", .object([(selection.uri, .array([
                    .object([("range", selection.range.json), ("newText", .string("#\(memo.id)"))]),
                ]))]))])),
            ]))
        }
        return JSONRenderer.json(memo)
    }
}
