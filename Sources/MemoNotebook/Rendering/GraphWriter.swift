import MemoStore

/// Writes a link graph (`memo graph`) as it is read: Graphviz's dot language, a box per memo
/// labelled `#ID first line`, an arrow per link; or one JSON object of nodes and edges.
enum GraphWriter {
    static func write(
        _ graph: LinkGraph, as format: GraphFormat, drawn drawing: GraphDrawing, to output: OutputSink
    ) throws(StoreError) {
        switch format {
        case .dot: try writeDot(graph, drawing, to: output)
        case .json: try writeJSON(graph, to: output)
        }
    }

    /// The graph attributes that keep hundreds of memos readable at full size: dot puts every
    /// memo without links in one rank, a strip tens of thousands of points long that viewers
    /// shrink to nothing; `pack` lays each connected part out on its own and packs the parts
    /// into a block, and the direction sets how links read within a part.
    private static func graphAttributes(_ drawing: GraphDrawing) -> String {
        "  graph [rankdir=\(drawing.direction.rawValue), pack=true];\n"
    }

    private static func writeDot(_ graph: LinkGraph, _ drawing: GraphDrawing, to output: OutputSink) throws(StoreError)
    {
        output.write("digraph memos {\n" + graphAttributes(drawing) + "  node [shape=box];\n")
        while let memo = try graph.nextNode() {
            output.write("  \(memo.id) [label=\(quoted(label(of: memo, drawn: drawing)))];\n")
        }
        while let edge = try graph.nextEdge() { output.write("  \(edge.from) -> \(edge.to);\n") }
        output.write("}\n")
    }

    /// `#ID` and as much of the first line as `labelLength` columns hold.
    private static func label(of memo: MemoStore.LinkedMemo, drawn drawing: GraphDrawing) -> String {
        let title = DisplayWidth.shorten(TerminalText.row(memo.title), to: drawing.labelLength)
        return title.isEmpty ? "#\(memo.id)" : "#\(memo.id) " + title
    }

    /// A dot string: in quotes, with `\` and `"` escaped, so a label is shown as written.
    private static func quoted(_ text: String) -> String {
        "\"" + text.replacing("\\", with: "\\\\").replacing("\"", with: "\\\"") + "\""
    }

    private static func writeJSON(_ graph: LinkGraph, to output: OutputSink) throws(StoreError) {
        output.write("{\"nodes\":[")
        var separator = ""
        while let memo = try graph.nextNode() {
            let node: JSONValue = .object([
                ("id", .integer(memo.id)), ("uuid", .string(memo.uuid)), ("title", .string(memo.title))
            ])
            output.write(separator + node.serialized)
            separator = ","
        }
        output.write("],\"edges\":[")
        separator = ""
        while let edge = try graph.nextEdge() {
            output.write(
                separator + JSONValue.object([("from", .integer(edge.from)), ("to", .integer(edge.to))]).serialized)
            separator = ","
        }
        output.write("]}\n")
    }
}
