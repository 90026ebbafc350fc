import MemoNotebook

/// The notebook methods of docs/REFERENCE.md, Notebook methods: each turns its params into a
/// `Command`, runs it through `Notebook.execute` as every other face does, and answers with the
/// outcome as JSON. Live watches re-run their listing whenever the store changes.
final class NotebookMethods {
    let notebook: Notebook
    let watches = WatchFeed()
    private let outbox: Outbox
    private let log: (String) -> Void

    init(notebook: Notebook, outbox: Outbox, log: @escaping (String) -> Void) {
        self.notebook = notebook
        self.outbox = outbox
        self.log = log
    }

    func add(_ params: AddParams) throws(RPCError) -> JSONValue {
        try run(.add(text: params.content, tags: params.tags ?? [], date: try Self.date(params.date)))
    }

    func get(_ params: GetParams) throws(RPCError) -> JSONValue {
        try run(.show(ids: [.id(params.id)]))
    }

    func list(_ params: ListParams) throws(RPCError) -> JSONValue {
        try run(.list(params.arguments()))
    }

    /// Changes a memo's text, its tags (the given set becomes its whole set), its date, or
    /// several of them in one change.
    func update(_ params: UpdateParams) throws(RPCError) -> JSONValue {
        if params.date != nil, params.insertDate != nil {
            throw .invalidParams("invalid params: give 'date' or 'insertDate', not both")
        }
        let date = try Self.date(params.date ?? params.insertDate)
        return try run(.update(id: params.id, content: params.content, tags: params.tags, date: date))
    }

    /// A DATE param read by the one date parser, natural forms included.
    private static func date(_ text: String?) throws(RPCError) -> DateArgument? {
        do {
            return try text.map { text throws(CommandError) in try DateArgument.parse(Word(text: text, isLiteral: true))
            }
        } catch {
            throw .invalidParams("invalid params: \(error.message)")
        }
    }

    func delete(_ params: DeleteParams) throws(RPCError) -> JSONValue {
        try run(.delete(ids: params.ids.map { .id($0) }))
    }

    /// Full-text search, newest first, as the `search` command does it.
    func search(_ params: SearchParams) throws(RPCError) -> JSONValue {
        if let limit = params.limit, limit < 0 { throw .invalidParams("invalid params: 'limit' must be 0 or more") }
        let query: SearchQuery
        do {
            query = try SearchQuery(parsing: params.query)
        } catch {
            throw .invalidParams("invalid params: \(error.description)")
        }
        var list = ListArguments.defaults
        list.limit = params.limit
        return try run(.search(SearchArguments(query: query, list: list)))
    }

    func tags() throws(RPCError) -> JSONValue {
        try run(.tags)
    }

    /// Runs command-language lines as the REPL would, and returns what they printed. Several
    /// commands are one change (`Notebook.allOrNothing`), all or nothing: when one fails, none
    /// of their changes is kept, and only the errors are answered; one `undo` takes them back.
    /// Lines that only undo and redo are all or nothing too, each its own entry. A batch is
    /// not kept across requests (the lines of one call are one change already), and with
    /// other lines, `undo` and `redo` are refused, as inside a batch in the REPL, and so is a
    /// command that acts beyond the store (`sync`, `export` to a file) or stops early
    /// (`quit`), since its effect could not be taken back.
    func execute(_ params: ExecuteParams) -> JSONValue {
        let lines = TextFile.lines(of: params.line)
        let commands = LineInterpreter.commands(in: lines)
        if let refusal = Self.refusal(of: commands) { return Self.answer(false, "error: \(refusal)\n") }
        let output = StringOutput(), errors = StringOutput()
        var succeeded = true
        let renderer = TextRenderer(style: TextStyle(width: nil, color: false, displayTime: notebook.displayTime))
        let interpreter = LineInterpreter(notebook: notebook, renderer: renderer, output: output) { error, _ in
            output.write(errorReport(error) + "\n")
            errors.write(errorReport(error) + "\n")
            succeeded = false
        }
        func runLines() {
            for line in lines where interpreter.feed(line, lineNumber: 1) == .quit { break }
            _ = interpreter.finish()
        }
        guard commands.count > 1 else {
            runLines()
            return Self.answer(succeeded, output.text)
        }
        do {
            let undoesOnly = commands.allSatisfy { $0 == .undo || $0 == .redo }
            try notebook.allOrNothing(asOneChange: !undoesOnly) {
                runLines()
                if !succeeded { throw LinesFailed() }
            }
            return Self.answer(true, output.text)
        } catch {
            let reason = error is LinesFailed ? "" : errorReport(error) + "\n"
            return Self.answer(
                false,
                errors.text + reason + "error: nothing was changed: the lines run as one change, all or nothing\n")
        }
    }

    /// A line of `memo/execute` failed: its change is not kept.
    private struct LinesFailed: Error {}

    /// Why lines cannot run through `memo/execute`, or nil.
    private static func refusal(of commands: [Command?]) -> String? {
        if commands.contains(where: { [.begin, .save, .rollback].contains($0) }) {
            return "a batch is not kept across requests: the lines of one memo/execute are one change already"
        }
        guard commands.count > 1 else { return nil }
        for command in commands {
            switch command {
            case .quit?: return "'quit' cannot run with other lines in one memo/execute"
            case .undo?, .redo?:
                guard !commands.allSatisfy({ $0 == .undo || $0 == .redo }) else { continue }
                return
                    "'\(command == .undo ? "undo" : "redo")' cannot run with other lines in one memo/execute, which are one change: send it alone"
            case .undoSync?: return "'undo --sync' cannot run with other lines in one memo/execute: send it alone"
            case .sync?: return "'sync' changes another store, which the other lines could not take back: send it alone"
            case .export(let arguments)? where arguments.path != "-":
                return "'export' to a file writes it at once, which the other lines could not take back: send it alone"
            default: continue
            }
        }
        return nil
    }

    private static func answer(_ ok: Bool, _ output: String) -> JSONValue {
        .object([("ok", .bool(ok)), ("output", .string(output))])
    }

    func watch(_ params: ListParams) throws(RPCError) -> JSONValue {
        let arguments = try params.arguments()
        let result = try RPCError.answering { try WatchFeed.result(of: arguments, in: notebook) }
        return .object([("watchId", .integer(Int64(watches.add(arguments, result: result))))])
    }

    func unwatch(_ params: UnwatchParams) throws(RPCError) -> JSONValue {
        guard watches.remove(params.watchId) else { throw .invalidParams("no watch \(params.watchId)") }
        return .null
    }

    /// Sends `memo/didChange` for every watch whose result changed, by this connection or another.
    func reportWatchChanges() {
        do {
            for change in try watches.changes(in: notebook) {
                outbox.notify(
                    "memo/didChange",
                    params: .object([
                        ("watchId", .integer(Int64(change.id))), ("memos", .array(change.memos))
                    ]))
            }
        } catch {
            // An error may quote a query's words or a memo's text: not of an encrypted store.
            log(
                notebook.isStoreSealed
                    ? "watch refresh failed (the store is encrypted: its error is not logged)"
                    : "watch refresh failed: \(errorMessage(error))")
        }
    }

    /// Runs a command through the notebook; its outcome as the method's result.
    private func run(_ command: Command) throws(RPCError) -> JSONValue {
        try RPCError.answering {
            guard let answer = try notebook.execute(command).answer() else {
                throw RPCError(code: .internalError, message: "no answer for the outcome of \(command)")
            }
            return answer
        }
    }
}
