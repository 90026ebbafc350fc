import MemoModel
import MemoNotebook

/// The live queries of `memo/watch`: each remembers the result it last reported, and is
/// run again only when the store's change stamp moved, whether this connection or
/// another process changed it.
final class WatchFeed {
    private struct Watch {
        let arguments: ListArguments
        var lastResult: [JSONValue]
    }

    private var watches: [Int: Watch] = [:]
    private var nextID = 1
    private var seenStamp: [Int64] = []

    var isEmpty: Bool { watches.isEmpty }

    /// Starts watching; returns the watch's id.
    func add(_ arguments: ListArguments, result: [JSONValue]) -> Int {
        defer { nextID += 1 }
        watches[nextID] = Watch(arguments: arguments, lastResult: result)
        return nextID
    }

    func remove(_ id: Int) -> Bool {
        watches.removeValue(forKey: id) != nil
    }

    /// The watches whose result differs from the last one reported, with the new result.
    func changes(in notebook: Notebook) throws -> [(id: Int, memos: [JSONValue])] {
        guard !watches.isEmpty else { return [] }
        let stamp = try notebook.changeStamp()
        guard stamp != seenStamp else { return [] }
        seenStamp = stamp
        var changes: [(id: Int, memos: [JSONValue])] = []
        for (id, watch) in watches.sorted(by: { $0.key < $1.key }) {
            let result = try Self.result(of: watch.arguments, in: notebook)
            if result != watch.lastResult {
                watches[id]?.lastResult = result
                changes.append((id, result))
            }
        }
        return changes
    }

    /// The memos of a list request as JSON objects: one JSON-RPC result is one value, so it
    /// is built whole.
    static func result(of arguments: ListArguments, in notebook: Notebook) throws -> [JSONValue] {
        try notebook.memos(notebook.query(for: arguments)).collect().map(JSONRenderer.json)
    }
}
