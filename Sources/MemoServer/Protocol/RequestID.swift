import MemoNotebook

/// A request's id: JSON-RPC allows a number or a string, and answers carry it back as given.
enum RequestID: Decodable, Hashable, Sendable {
    case number(Int64)
    case string(String)

    init(from decoder: Decoder) throws {
        let container = try decoder.singleValueContainer()
        if let number = try? container.decode(Int64.self) {
            self = .number(number)
        } else {
            self = .string(try container.decode(String.self))
        }
    }

    var json: JSONValue {
        switch self {
        case .number(let number): .integer(number)
        case .string(let text): .string(text)
        }
    }
}
