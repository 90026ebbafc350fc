import MemoModel
import MemoNotebook

extension ListParams {
    /// The list arguments these params stand for, checked as the command line checks them.
    func arguments() throws(RPCError) -> ListArguments {
        var arguments = ListArguments.defaults
        switch order {
        case nil, "desc": arguments.order = .newestFirst
        case "asc": arguments.order = .oldestFirst
        case let order?: throw .invalidParams("invalid params: 'order' must be \"asc\" or \"desc\", not \"\(order)\"")
        }
        if let limit, limit < 0 { throw .invalidParams("invalid params: 'limit' must be 0 or more") }
        if let offset, offset < 0 { throw .invalidParams("invalid params: 'offset' must be 0 or more") }
        arguments.limit = limit
        arguments.offset = offset ?? 0
        do {
            arguments.filter.tags = try tag.map { tag throws(StoreError) in [try TagName.normalize(tag)] } ?? []
            arguments.filter.since = try since.map { try DateArgument.parse(Word(text: $0, isLiteral: true)) }
            arguments.filter.until = try until.map { try DateArgument.parse(Word(text: $0, isLiteral: true)) }
        } catch {
            throw .invalidParams("invalid params: \(errorMessage(error))")
        }
        return arguments
    }
}
