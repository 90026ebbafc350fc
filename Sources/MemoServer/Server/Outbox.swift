import MemoNotebook

/// What the server sends: answers, notifications, and its own requests to the client,
/// as JSON values handed to the transport.
///
/// A request may hold the notifications back until the client answers it: an editor that
/// asks its user about a `workspace/applyEdit` (eglot does) reads the messages that come in
/// meanwhile inside its question, and can lose the answer it waits for among them.
final class Outbox {
    private let send: (JSONValue) -> Void
    private var nextRequestID = 1
    /// The requests whose answer the notifications wait for, and the notifications held.
    private var holdingRequests: Set<RequestID> = []
    private var heldNotifications: [JSONValue] = []

    init(send: @escaping (JSONValue) -> Void) {
        self.send = send
    }

    func answer(_ answer: JSONValue) {
        send(answer)
    }

    /// Sends a notification, or keeps it until the requests holding notifications are answered.
    func notify(_ method: String, params: JSONValue) {
        let notification = Self.notification(method, params: params)
        if holdingRequests.isEmpty { send(notification) } else { heldNotifications.append(notification) }
    }

    /// Sends a request to the client (`workspace/applyEdit`); its id, by which its answer,
    /// whenever it comes, is known (`MemoServer` hands answers to whoever asked). With
    /// `holdingNotifications`, no notification goes out until the client has answered it.
    @discardableResult
    func request(_ method: String, params: JSONValue, holdingNotifications: Bool = false) -> RequestID {
        let id = RequestID.string("memo-\(nextRequestID)")
        nextRequestID += 1
        send(.object([("jsonrpc", .string("2.0")), ("id", id.json), ("method", .string(method)), ("params", params)]))
        if holdingNotifications { holdingRequests.insert(id) }
        return id
    }

    /// The client answered request `id`: once no request holds them, the notifications held
    /// go out, in order. Called after whoever asked has sent what the answer makes it send.
    func received(answerTo id: RequestID) {
        guard holdingRequests.remove(id) != nil, holdingRequests.isEmpty else { return }
        let held = heldNotifications
        heldNotifications = []
        held.forEach(send)
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
