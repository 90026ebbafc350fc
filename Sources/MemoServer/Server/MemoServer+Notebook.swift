import MemoNotebook
import MemoStore

/// The notebook methods: the same `Notebook` and store operations as the command language,
/// with typed params in and memo objects out.
extension MemoServer {
    func add(_ params: AddParams) throws(RPCError) -> JSONValue {
        try answering { JSONRenderer.json(try notebook.tracking { try notebook.add(params.content, tags: params.tags ?? []) }) }
    }

    func get(_ params: GetParams) throws(RPCError) -> JSONValue {
        try answering { JSONRenderer.json(try notebook.store.existingMemo(id: params.id)) }
    }

    func list(_ params: ListParams) throws(RPCError) -> JSONValue {
        let arguments = try listArguments(params)
        return try answering { .object([("memos", .array(try WatchFeed.result(of: arguments, in: notebook)))]) }
    }

    /// Changes a memo's text (setting its update date), its tags (the given set becomes
    /// its whole set), or both, in one transaction.
    func update(_ params: UpdateParams) throws(RPCError) -> JSONValue {
        try answering {
            let store = notebook.store
            let time = notebook.clock.current
            let memo = try notebook.tracking { try store.recordingChange(.edit, at: time) {
                var memo = try store.existingMemo(id: params.id)
                if let content = params.content {
                    memo = try store.updateContent(id: params.id, to: content, at: notebook.clock.now())
                }
                if let tags = params.tags { memo = try store.replaceTags(of: params.id, with: tags, at: time) }
                return memo
            } }
            return JSONRenderer.json(memo)
        }
    }

    func delete(_ params: DeleteParams) throws(RPCError) -> JSONValue {
        try answering {
            .object([("deleted", .array(try notebook.tracking { try notebook.store.delete(ids: params.ids, at: notebook.clock.current) }.map(JSONValue.integer)))])
        }
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
        return try answering {
            let cursor = try notebook.store.memos(MemoQuery(filter: MemoFilter(search: query), limit: params.limit))
            return .object([("memos", .array(try WatchFeed.collect(cursor)))])
        }
    }

    func tags() throws(RPCError) -> JSONValue {
        try answering { .object([("tags", .array(try notebook.store.tagCounts().map(JSONRenderer.json)))]) }
    }

    /// Runs command-language lines as the REPL would, and returns what they printed.
    func execute(_ params: ExecuteParams) -> JSONValue {
        let output = StringOutput()
        var succeeded = true
        let renderer = TextRenderer(style: TextStyle(width: nil, color: false, displayTime: notebook.displayTime))
        let interpreter = LineInterpreter(notebook: notebook, renderer: renderer, output: output) { error, _ in
            output.write(errorReport(error) + "\n")
            succeeded = false
        }
        for line in TextFile.lines(of: params.line) {
            if interpreter.feed(line, lineNumber: 1) == .quit { break }
        }
        _ = interpreter.finish()
        return .object([("ok", .bool(succeeded)), ("output", .string(output.text))])
    }

    func watch(_ params: ListParams) throws(RPCError) -> JSONValue {
        let arguments = try listArguments(params)
        let result = try answering { try WatchFeed.result(of: arguments, in: notebook) }
        return .object([("watchId", .integer(Int64(watches.add(arguments, result: result))))])
    }

    func unwatch(_ params: UnwatchParams) throws(RPCError) -> JSONValue {
        guard watches.remove(params.watchId) else { throw .invalidParams("no watch \(params.watchId)") }
        return .null
    }

    /// The list arguments `memo/list` params stand for, checked as the command line checks them.
    private func listArguments(_ params: ListParams) throws(RPCError) -> ListArguments {
        var arguments = ListArguments()
        switch params.order {
        case nil, "desc": arguments.order = .newestFirst
        case "asc": arguments.order = .oldestFirst
        case let order?: throw .invalidParams("invalid params: 'order' must be \"asc\" or \"desc\", not \"\(order)\"")
        }
        if let limit = params.limit, limit < 0 { throw .invalidParams("invalid params: 'limit' must be 0 or more") }
        if let offset = params.offset, offset < 0 { throw .invalidParams("invalid params: 'offset' must be 0 or more") }
        arguments.limit = params.limit
        arguments.offset = params.offset ?? 0
        do {
            arguments.filter.tag = try params.tag.map { tag throws(StoreError) in try TagName.normalize(tag) }
            arguments.filter.since = try params.since.map { try DateArgument.parse(Word(text: $0, isLiteral: true)) }
            arguments.filter.until = try params.until.map { try DateArgument.parse(Word(text: $0, isLiteral: true)) }
        } catch {
            throw .invalidParams("invalid params: \(errorMessage(error))")
        }
        return arguments
    }

    /// Runs a notebook operation, answering its failures with the codes of SPEC §8.
    func answering<T>(_ body: () throws -> T) throws(RPCError) -> T {
        do {
            return try body()
        } catch let error as RPCError {
            throw error
        } catch let error as StoreError {
            switch error {
            case .refused(.memoNotFound): throw RPCError(code: .memoNotFound, message: error.description)
            case _ where error.isStoreUnusable: throw RPCError(code: .storeFailure, message: error.description)
            case .interrupted, .sqlite: throw RPCError(code: .storeFailure, message: error.description)
            default: throw .invalidParams(error.description)
            }
        } catch {
            throw .invalidParams(errorMessage(error))
        }
    }
}
