import MemoNotebook

extension PositionRange {
    var json: JSONValue {
        .object([("start", start.json), ("end", end.json)])
    }
}

extension Position {
    var json: JSONValue {
        .object([("line", .integer(Int64(line))), ("character", .integer(Int64(character)))])
    }
}
