/// The link graph of the memos a filter selects (docs/REFERENCE.md, Links, `memo graph`): the
/// memos, oldest first, then the links between two of them, each once, read as they are written
/// out, so a graph of a million memos takes no more memory than one of ten.
///
/// Not `Sendable`: it reads through its store's connection, in the session that made it.
package final class LinkGraph {
    private let nodes: Statement
    private let edges: Statement
    /// Labels read as a person here reads the texts: `#ID` links by their memos' ids here.
    private let readable: ReadableText

    /// Prepares the two statements over the memos `filter` selects, and with `linkedOnly` only
    /// those with a link to or from another of them. Without filters every memo is in: the
    /// statements read the tables straight, so memory stays flat; with filters the selected ids,
    /// and with `linkedOnly` the linked ones, are gathered once.
    init(selecting filter: MemoFilter, linkedOnly: Bool, in database: Database) throws {
        readable = ReadableText(database: database)
        let (whereSQL, values) = filter.whereClause
        let isFiltered = !whereSQL.isEmpty
        let selected = isFiltered ? "selected(id) AS MATERIALIZED (SELECT memo.id FROM memo\(whereSQL))" : nil
        let edgeSQL =
            "SELECT DISTINCT l.memo_id AS source, t.id AS target FROM memo_link l JOIN memo t ON t.uuid = l.target_uuid"
            + (isFiltered
                ? " WHERE l.memo_id IN (SELECT id FROM selected) AND t.id IN (SELECT id FROM selected)" : "")
        // A memo naming itself is not linked to another.
        let linked =
            "linked(id) AS MATERIALIZED (SELECT source FROM edge WHERE source != target"
            + " UNION SELECT target FROM edge WHERE source != target)"
        let tables = [selected, "edge AS (\(edgeSQL))", linkedOnly ? linked : nil]
        let nodeConditions =
            (isFiltered ? ["t.id IN (SELECT id FROM selected)"] : [])
            + (linkedOnly ? ["t.id IN (SELECT id FROM linked)"] : [])
        nodes = try database.prepare(
            Self.with(tables) + "SELECT \(LinkIndex.linkedColumns) FROM memo t"
                + (nodeConditions.isEmpty ? "" : " WHERE " + nodeConditions.joined(separator: " AND "))
                + " ORDER BY t.insert_date, t.id")
        try nodes.bind(values)
        // Under `linkedOnly`, a memo's link to itself goes with it when nothing else keeps it.
        edges = try database.prepare(
            Self.with(tables) + "SELECT source, target FROM edge"
                + (linkedOnly ? " WHERE source IN (SELECT id FROM linked)" : "") + " ORDER BY 1, 2")
        try edges.bind(values)
    }

    /// A `WITH` clause of the common tables given, or nothing when none is.
    private static func with(_ tables: [String?]) -> String {
        let present = tables.compactMap { $0 }
        return present.isEmpty ? "" : "WITH " + present.joined(separator: ", ") + " "
    }

    /// The next memo of the graph, or nil after the last; its title as a person here reads it.
    package func nextNode() throws(StoreError) -> MemoStore.LinkedMemo? {
        try StoreError.wrapping {
            guard try nodes.step() else { return nil }
            return try LinkIndex.linkedMemo(nodes, at: 0, readable: readable)
        }
    }

    /// The next link, from the memo whose text makes it to the memo it names (ids), or nil
    /// after the last; in order of those ids.
    package func nextEdge() throws(StoreError) -> (from: Int64, to: Int64)? {
        try StoreError.wrapping {
            guard try edges.step() else { return nil }
            return (edges.int64(at: 0), edges.int64(at: 1))
        }
    }
}
