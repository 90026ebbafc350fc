import MemoNotebook

/// Stands in for the user's editor: saves what `edit` makes of the text it was opened on,
/// and keeps what a command could not use in memory, under made-up paths. With
/// `isStandardInput`, it stands in for piped standard input instead.
package final class ScriptedEditor: MissingTextSource {
    package var edit: (String) throws -> String
    package var isStandardInput = false
    /// The texts it was opened on, in order.
    package private(set) var opened: [String] = []
    /// The texts it was asked to keep.
    package private(set) var kept: [String] = []

    /// - Parameter edit: the text saved, from the text the editor was opened on.
    package init(_ edit: @escaping (String) throws -> String) { self.edit = edit }

    /// As one text, `edit` works on it without the line break the editor's file ends with.
    package func save(startingFrom current: String, asOneText: Bool) throws -> SavedText {
        opened.append(current)
        let saved = try edit(current) + (asOneText ? "\n" : "")
        return SavedText(bytes: Array(saved.utf8), isFromStandardInput: isStandardInput) { [self] in
            kept.append(saved)
            return "/kept/\(kept.count)"
        }
    }
}
