import Foundation

/// One JSON-RPC message as received: a request, a notification, or a response to us
/// (which memo never asks for, so it ignores them). Params stay raw until the method
/// that reads them decodes them into its own type.
struct IncomingMessage {
    enum Kind: Equatable {
        case request(RequestID)
        case notification
        case response
    }

    let kind: Kind
    let method: String
    /// The whole message, from which `params(_:)` decodes its params.
    let body: Data

    /// Why a message cannot be handled: the error to answer with, and the id to answer, if known.
    struct Rejection: Error {
        let error: RPCError
        let id: RequestID?
    }

    /// Reads a message object, or the rejection to answer it with.
    static func decode(_ body: Data) -> Result<IncomingMessage, Rejection> {
        let envelope: Envelope
        do {
            envelope = try JSONDecoder().decode(Envelope.self, from: body)
        } catch DecodingError.dataCorrupted(let context) where context.codingPath.isEmpty {
            // Corrupt at the top: the text is not JSON at all.
            return .failure(Rejection(error: .parseError("parse error: the message is not valid JSON"), id: nil))
        } catch {
            return .failure(Rejection(error: .invalidRequest("not a JSON-RPC 2.0 message object"), id: nil))
        }
        // A response is never answered, however malformed: answering could start a loop.
        if envelope.method == nil, envelope.isResponse {
            return .success(IncomingMessage(kind: .response, method: "", body: body))
        }
        if envelope.hasInvalidID {
            return .failure(Rejection(error: .invalidRequest("the id must be a number or a string"), id: nil))
        }
        guard envelope.jsonrpc == "2.0" else {
            return .failure(Rejection(error: .invalidRequest("'jsonrpc' must be \"2.0\""), id: envelope.id))
        }
        guard let method = envelope.method else {
            return .failure(Rejection(error: .invalidRequest("the message has no 'method'"), id: envelope.id))
        }
        let kind = envelope.id.map(Kind.request) ?? .notification
        return .success(IncomingMessage(kind: kind, method: method, body: body))
    }

    /// The params as `P`; absent params read as an empty object.
    func params<P: Decodable>(_ type: P.Type) throws(RPCError) -> P {
        do {
            if let params = try JSONDecoder().decode(ParamsEnvelope<P>.self, from: body).params { return params }
            return try JSONDecoder().decode(P.self, from: Data("{}".utf8))
        } catch let error as DecodingError {
            throw .invalidParams(Self.describe(error))
        } catch {
            throw .invalidParams("invalid params: \(error)")
        }
    }

    /// A decoding error in words: which field, and what was wrong with it.
    private static func describe(_ error: DecodingError) -> String {
        func path(_ context: DecodingError.Context) -> String {
            let keys = context.codingPath.filter { $0.stringValue != "params" }.map { $0.intValue.map { "[\($0)]" } ?? $0.stringValue }
            return keys.isEmpty ? "params" : "'" + keys.joined(separator: ".") + "'"
        }
        switch error {
        case .keyNotFound(let key, let context):
            let field = (context.codingPath.filter { $0.stringValue != "params" }.map(\.stringValue) + [key.stringValue])
            return "invalid params: '\(field.joined(separator: "."))' is required"
        case .typeMismatch(let type, let context), .valueNotFound(let type, let context):
            return "invalid params: \(path(context)) must be \(Self.name(of: type))"
        case .dataCorrupted(let context):
            return "invalid params: \(path(context)) is malformed"
        @unknown default:
            return "invalid params"
        }
    }

    private static func name(of type: Any.Type) -> String {
        switch String(describing: type) {
        case "String": "a string"
        case "Int", "Int64": "an integer"
        case "Bool": "true or false"
        case let name where name.hasPrefix("Array"): "an array"
        default: "an object"
        }
    }

    private struct ParamsEnvelope<P: Decodable>: Decodable {
        let params: P?
    }

    /// The fields every JSON-RPC message may have, read leniently so that a bad id or
    /// version can still be answered precisely.
    private struct Envelope: Decodable {
        let jsonrpc: String?
        let id: RequestID?
        let hasInvalidID: Bool
        let method: String?
        let isResponse: Bool

        enum CodingKeys: String, CodingKey {
            case jsonrpc, id, method, result, error
        }

        init(from decoder: Decoder) throws {
            let container = try decoder.container(keyedBy: CodingKeys.self)
            jsonrpc = try? container.decodeIfPresent(String.self, forKey: .jsonrpc)
            if container.contains(.id), !((try? container.decodeNil(forKey: .id)) ?? false) {
                id = try? container.decode(RequestID.self, forKey: .id)
                hasInvalidID = id == nil
            } else {
                id = nil
                hasInvalidID = container.contains(.id)
            }
            method = try? container.decodeIfPresent(String.self, forKey: .method)
            isResponse = container.contains(.result) || container.contains(.error)
        }
    }
}
