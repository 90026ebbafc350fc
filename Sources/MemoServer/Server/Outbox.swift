import MemoNotebook

/// What the server sends: answers, notifications, and its own requests to the client,
/// as JSON values handed to the transport.
final class Outbox {
    private let send: (JSONValue) -> Void
    private var nextRequestID = 1

    init(send: @escaping (JSONValue) -> Void) {
        self.send = send
    }

    func answer(_ answer: JSONValue) {
        send(answer)
    }

    func notify(_ method: String, params: JSONValue) {
        send(Self.notification(method, params: params))
    }

    /// Sends a request to the client (`workspace/applyEdit`); its id, by which its answer,
    /// whenever it comes, is known (`MemoServer` hands answers to whoever asked).
    @discardableResult
    func request(_ method: String, params: JSONValue) -> RequestID {
        let id = RequestID.string("memo-\(nextRequestID)")
        nextRequestID += 1
        send(.object([("jsonrpc", .string("2.0")), ("id", id.json), ("method", .string(method)), ("params", params)]))
        return id
    }

    static func response(id: RequestID?, result: JSONValue) -> JSONValue {
        .object([("jsonrpc", .string("2.0")), ("id", id?.json ?? .null), ("result", result)])
    }

    static func response(id: RequestID?, error: RPCError) -> JSONValue {
        .object([("jsonrpc", .string("2.0")), ("id", id?.json ?? .null), ("error", error.json)])
    }

    static func notification(_ method: String, params: JSONValue) -> JSONValue {
        .object([("jsonrpc", .string("2.0")), ("method", .string(method)), ("params", params)])
    }
}
