import MemoNotebook

/// Stands in for the user's editor: saves what `edit` makes of the text it was opened on,
/// and keeps refused bulk-edit buffers in memory, under made-up paths.
package final class ScriptedEditor: MissingTextSource {
    package var edit: (String) throws -> String
    /// The texts it was opened on, in order.
    package private(set) var opened: [String] = []
    /// The buffers it was asked to keep.
    package private(set) var kept: [String] = []

    /// - Parameter edit: the text saved, from the text the editor was opened on.
    package init(_ edit: @escaping (String) throws -> String) { self.edit = edit }

    package func text(current: String) throws -> String { try buffer(current: current) }

    package func buffer(current: String) throws -> String {
        opened.append(current)
        return try edit(current)
    }

    package func keep(_ text: String) throws -> String {
        kept.append(text)
        return "/kept/\(kept.count)"
    }
}
