import MemoNotebook

extension Outcome {
    /// The result of a `memo/*` method that ran as this outcome (docs/REFERENCE.md,
    /// Notebook methods), or nil for an outcome no such method has. A listing is read whole: one
    /// JSON-RPC result is one value.
    func answer() throws -> JSONValue? {
        switch self {
        case .added(let memo), .edited(let memo), .moved(let memo, _): JSONRenderer.json(memo)
        case .shown(let memos): memos.first.map { JSONRenderer.json($0.memo) }
        case .memos(let cursor, _, _): .object([("memos", .array(try cursor.collect().map(JSONRenderer.json)))])
        case .deleted(let ids, _): .object([("deleted", .array(ids.map(JSONValue.integer)))])
        case .tags(let counts): .object([("tags", .array(counts.map(JSONRenderer.json)))])
        default: nil
        }
    }
}
