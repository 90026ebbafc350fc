import MemoModel
import MemoNotebook

/// `textDocument/codeLens`: how many memos reference a memo, above its own file and beside
/// each reference to it, as zk and marksman show a note's backlinks. Lenses come resolved
/// (each count is one indexed query, cheaper than a second round trip per lens), and carry
/// a command with no name: a title alone, which clients show and do not run.
extension ReferenceService {
    func codeLenses(in document: TextDocument, encoding: PositionEncoding) throws(RPCError) -> JSONValue {
        var counts: [Int64: Int] = [:]
        func backlinks(of id: Int64) throws(RPCError) -> Int {
            if let known = counts[id] { return known }
            let count = try RPCError.answering { try notebook.referrerCount(of: id) }
            counts[id] = count
            return count
        }
        var lenses: [JSONValue] = []
        if let id = memoFiles?.id(ofURI: document.uri), try RPCError.answering({ try notebook.memo(id: id) }) != nil {
            let first = document.line(0) ?? ""
            lenses.append(
                Self.lens(
                    encoding.range(line: 0, first.startIndex..<first.endIndex, in: first),
                    title: Self.backlinkCount(try backlinks(of: id))))
        }
        var seen: Set<[Int64]> = []
        for found in references(in: document) {
            guard let memo = found.memo, seen.insert([Int64(found.line), memo.id]).inserted else { continue }
            lenses.append(
                Self.lens(
                    encoding.range(line: found.line, found.range, in: found.text),
                    title: "\(found.text[found.range]): \(Self.backlinkCount(try backlinks(of: memo.id)))"))
        }
        return .array(lenses)
    }

    /// "no backlinks", "1 backlink", "3 backlinks".
    static func backlinkCount(_ count: Int) -> String {
        switch count {
        case 0: "no backlinks"
        case 1: "1 backlink"
        default: "\(count) backlinks"
        }
    }

    private static func lens(_ range: JSONValue, title: String) -> JSONValue {
        .object([("range", range), ("command", .object([("title", .string(title)), ("command", .string(""))]))])
    }
}
