/// Why a saved bulk-edit buffer is refused as a whole: nothing of it is applied, and its
/// text is kept in a file the error names (docs/REFERENCE.md, Editing several memos at once).
package enum BulkEditProblem: Error, Equatable, CustomStringConvertible {
    case malformedHeader(line: Int, text: String)
    case textBeforeFirstHeader(line: Int)
    case duplicateHeader(line: Int, id: Int64)
    /// A header naming a memo that was not opened in the buffer.
    case unknownMemo(Int64)
    /// A memo's header kept with no text under it (removing the header too deletes it).
    case emptyText(Int64)
    /// No header at all: read as "delete everything", which an emptied or lost buffer also looks like.
    case noHeader
    /// Memos another process changed or deleted while the editor was open.
    case changedMeanwhile([Int64])
    /// Memos whose header names a version (`v:…`) they no longer have: the buffer was written
    /// before another change to them (a kept buffer saved again).
    case changedSinceWritten([Int64])

    package var description: String {
        switch self {
        case .malformedHeader(let line, let text):
            "line \(line): '\(text)' is not a header ('%% #ID', '%% new'; '%%%' starts a comment)"
        case .textBeforeFirstHeader(let line):
            "line \(line): text before the first header belongs to no memo"
        case .duplicateHeader(let line, let id):
            "line \(line): memo #\(id) has a second header"
        case .unknownMemo(let id):
            "the header '%% #\(id)' names a memo that was not in the buffer (the memos the filters select)"
        case .emptyText(let id):
            "memo #\(id) has no text (remove its header too to delete it)"
        case .noHeader:
            "the buffer holds no header (to delete memos, use 'delete')"
        case .changedMeanwhile(let ids):
            Self.named(ids) + " changed by someone else while the editor was open"
        case .changedSinceWritten(let ids):
            Self.named(ids) + " changed since the buffer was written (its header names an older version)"
        }
    }

    /// `#2 was`, `#2, #5 were`.
    private static func named(_ ids: [Int64]) -> String {
        ids.map { "#\($0)" }.joined(separator: ", ") + (ids.count == 1 ? " was" : " were")
    }
}
