import FoundationEssentials

/// Reads a message's `params` from the container the message itself is decoded from, so
/// the body is parsed once; failures become `invalid params` answers that name the field.
struct ParamsReader {
    let container: KeyedDecodingContainer<IncomingMessage.CodingKeys>

    /// The params as `P`; absent (or null) params read as an empty object.
    func read<P: Decodable>(_ type: P.Type = P.self) throws(RPCError) -> P {
        do {
            if let params = try container.decodeIfPresent(P.self, forKey: .params) { return params }
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
            let keys = insideParams(context.codingPath).map { $0.intValue.map { "[\($0)]" } ?? $0.stringValue }
            return keys.isEmpty ? "params" : "'" + keys.joined(separator: ".") + "'"
        }
        switch error {
        case .keyNotFound(let key, let context):
            let field = insideParams(context.codingPath).map(\.stringValue) + [key.stringValue]
            return "invalid params: '\(field.joined(separator: "."))' is required"
        case .typeMismatch(let type, let context), .valueNotFound(let type, let context):
            return "invalid params: \(path(context)) must be \(Self.name(of: type))"
        case .dataCorrupted(let context):
            return "invalid params: \(path(context)) is malformed"
        @unknown default:
            return "invalid params"
        }
    }

    /// The part of a coding path inside `params` (which a message in a batch has an index before).
    private static func insideParams(_ path: [CodingKey]) -> ArraySlice<CodingKey> {
        guard let params = path.firstIndex(where: { $0.stringValue == "params" }) else { return path[...] }
        return path[(params + 1)...]
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
}
