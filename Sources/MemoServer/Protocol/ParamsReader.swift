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
            throw .invalidParams(Self.describeParserRefusal(error))
        }
    }

    /// The JSON parser's own refusal of a value it reads only when a field asks for it, in
    /// words: its error type is internal (and does not say where), so only its kind is told.
    private static func describeParserRefusal(_ error: any Error) -> String {
        let kind = String(describing: error).lowercased()
        if kind.contains("number") {
            return "invalid params: a number where an integer is wanted has a fraction or is too large"
        }
        if kind.contains("escape") || kind.contains("scalar") || kind.contains("unicode") || kind.contains("surrogate")
        {
            return "invalid params: a string holds an escape JSON does not allow, or half of a surrogate pair"
        }
        return "invalid params: a value cannot be read"
    }

    /// A decoding error in words: which field, and what was wrong with it.
    private static func describe(_ error: DecodingError) -> String {
        func path(_ context: DecodingError.Context) -> String {
            let keys = insideParams(context.codingPath)
            return keys.isEmpty ? "params" : "'" + field(keys) + "'"
        }
        switch error {
        case .keyNotFound(let key, let context):
            return "invalid params: '\(field(insideParams(context.codingPath) + [key]))' is required"
        case .typeMismatch(let type, let context), .valueNotFound(let type, let context):
            return "invalid params: \(path(context)) must be \(Self.name(of: type))"
        case .dataCorrupted(let context):
            return "invalid params: \(path(context)) is malformed"
        @unknown default:
            return "invalid params"
        }
    }

    /// A field as a client names it: `arguments[0].range.start`.
    private static func field(_ keys: some Collection<CodingKey>) -> String {
        keys.map { key in key.intValue.map { "[\($0)]" } ?? "." + key.stringValue }.joined().drop { $0 == "." }
            .description
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
