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

    /// Prepares the two statements over the memos `filter` selects. Without filters every
    /// memo is in: the statements read the tables straight, so memory stays flat; with
    /// filters the selected ids are gathered once.
    init(selecting filter: MemoFilter, in database: Database) throws {
        readable = ReadableText(database: database)
        let (whereSQL, values) = filter.whereClause
        let selected =
            whereSQL.isEmpty ? "" : "WITH selected(id) AS MATERIALIZED (SELECT memo.id FROM memo\(whereSQL)) "
        nodes = try database.prepare(
            selected + "SELECT \(LinkIndex.linkedColumns) FROM memo t"
                + (whereSQL.isEmpty ? "" : " WHERE t.id IN (SELECT id FROM selected)") + " ORDER BY t.insert_date, t.id"
        )
        try nodes.bind(values)
        edges = try database.prepare(
            selected + """
                SELECT DISTINCT l.memo_id, t.id FROM memo_link l JOIN memo t ON t.uuid = l.target_uuid
                """
                + (whereSQL.isEmpty
                    ? "" : " WHERE l.memo_id IN (SELECT id FROM selected) AND t.id IN (SELECT id FROM selected)")
                + " ORDER BY 1, 2")
        try edges.bind(values)
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
