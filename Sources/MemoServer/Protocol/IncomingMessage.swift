import FoundationEssentials
import MemoNotebook

/// One JSON-RPC message as received: a request, a notification, or a response to us
/// (which memo never asks for, so it ignores them). It is decoded in one pass: the
/// envelope's `method` picks the type its `params` are decoded into (`Call`), from the
/// same container.
struct IncomingMessage {
    enum Kind: Equatable {
        case request(RequestID)
        case notification
        /// The client's answer to a request of the server's: its result, nil for an error.
        case response(RequestID?, result: JSONValue?)
    }

    let kind: Kind
    let method: String
    /// The method with its params, nil for one memo does not serve, or why the params
    /// cannot be read: answered only once the lifecycle allows the method.
    let call: Result<Call, RPCError>?

    /// Why a message cannot be handled: the error to answer with, and the id to answer, if known.
    struct Rejection: Error {
        let error: RPCError
        let id: RequestID?
    }

    enum CodingKeys: String, CodingKey {
        case jsonrpc, id, method, params, result, error
    }

    /// A message body: one message object, or a batch (an array of them), each element
    /// read or rejected on its own. Throws only when the body is not JSON at all.
    static func decode(_ body: Data, isBatch: Bool) throws -> [Result<IncomingMessage, Rejection>] {
        if isBatch { return try JSONDecoder().decode([Slot].self, from: body).map(\.message) }
        return [try JSONDecoder().decode(Slot.self, from: body).message]
    }

    /// One message of a body, decoded leniently so that a bad id or version can still be
    /// answered precisely and one bad element of a batch does not spoil the others.
    private struct Slot: Decodable {
        let message: Result<IncomingMessage, Rejection>

        init(from decoder: Decoder) {
            do {
                message = .success(try IncomingMessage(from: decoder))
            } catch let rejection as Rejection {
                message = .failure(rejection)
            } catch {
                message = .failure(Rejection(error: .invalidRequest("not a JSON-RPC 2.0 message object"), id: nil))
            }
        }
    }

    private init(from decoder: Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        let method = try? container.decodeIfPresent(String.self, forKey: .method)
        // A response is never answered, however malformed: answering could start a loop.
        if method == nil, container.contains(.result) || container.contains(.error) {
            let id = try? container.decode(RequestID.self, forKey: .id)
            let result = container.contains(.error) ? nil : try? container.decode(JSONValue.self, forKey: .result)
            self.init(kind: .response(id, result: result), method: "", call: nil)
            return
        }
        // A null id makes a request (JSON-RPC answers it with a null id), not a notification;
        // LSP allows none, and one cannot be told from another's, so it is refused, answered.
        var id: RequestID?
        if container.contains(.id) {
            id = try? container.decode(RequestID.self, forKey: .id)
            guard id != nil else {
                throw Rejection(error: .invalidRequest("the id must be a number or a string"), id: nil)
            }
        }
        guard (try? container.decodeIfPresent(String.self, forKey: .jsonrpc)) == "2.0" else {
            throw Rejection(error: .invalidRequest("'jsonrpc' must be \"2.0\""), id: id)
        }
        guard let method else { throw Rejection(error: .invalidRequest("the message has no 'method'"), id: id) }
        let params = ParamsReader(container: container)
        let call: Result<Call?, RPCError>
        if let id {
            call = Result { () throws(RPCError) in try Call.request(method, params) }
            self.init(kind: .request(id), method: method, call: Self.flatten(call))
        } else {
            call = Result { () throws(RPCError) in try Call.notification(method, params) }
            self.init(kind: .notification, method: method, call: Self.flatten(call))
        }
    }

    private init(kind: Kind, method: String, call: Result<Call, RPCError>?) {
        self.kind = kind
        self.method = method
        self.call = call
    }

    /// nil for an unknown method, else the call or why its params cannot be read.
    private static func flatten(_ call: Result<Call?, RPCError>) -> Result<Call, RPCError>? {
        switch call {
        case .success(let known?): .success(known)
        case .success(nil): nil
        case .failure(let error): .failure(error)
        }
    }
}
