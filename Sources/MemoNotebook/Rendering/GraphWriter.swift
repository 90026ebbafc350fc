import MemoStore

/// Writes a link graph (`memo graph`) as it is read: Graphviz's dot language, a box per memo
/// labelled `#ID first line`, an arrow per link; or one JSON object of nodes and edges.
enum GraphWriter {
    /// The most columns of a memo's first line in a dot label.
    static let labelWidth = 60

    static func write(_ graph: LinkGraph, as format: GraphFormat, to output: OutputSink) throws(StoreError) {
        switch format {
        case .dot: try writeDot(graph, to: output)
        case .json: try writeJSON(graph, to: output)
        }
    }

    private static func writeDot(_ graph: LinkGraph, to output: OutputSink) throws(StoreError) {
        output.write("digraph memos {\n  node [shape=box];\n")
        while let memo = try graph.nextNode() {
            let label = "#\(memo.id) " + DisplayWidth.shorten(TerminalText.row(memo.title), to: labelWidth)
            output.write("  \(memo.id) [label=\(quoted(label))];\n")
        }
        while let edge = try graph.nextEdge() { output.write("  \(edge.from) -> \(edge.to);\n") }
        output.write("}\n")
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
