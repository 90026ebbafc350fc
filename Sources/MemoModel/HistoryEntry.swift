/// What a history entry records: the command (or the batch, import, fixture or sync) that
/// made a saved change, or an undo or redo of one.
package enum ChangeKind: String, Equatable, Sendable {
    case add, edit, delete, tag, untag
    case `import`, fixture, batch, sync
    case undo, redo
    /// `edit` of several memos in one buffer (it may delete and add memos), and `tag --rename`.
    case bulkEdit = "bulk-edit", renameTag = "rename-tag"
    /// A memo moved to another insert date (`edit ID --date WHEN`, without new text).
    case move
    /// References of memo texts made words (`links --unlink`): the texts stay, their links go.
    case unlink

    /// Undo and redo entries record the undoing of other entries; they are not undone
    /// themselves (redo is how an undo is taken back).
    package var isUndoOrRedo: Bool { self == .undo || self == .redo }

    /// Whether a change of this kind may delete memos, so that a store which never synced
    /// records its deletes as tombstones. A switch: a new kind must say.
    package var mayDeleteMemos: Bool {
        switch self {
        case .add, .edit, .tag, .untag, .renameTag, .move, .unlink: false
        case .delete, .import, .fixture, .batch, .sync, .undo, .redo, .bulkEdit: true
        }
    }
}

/// One saved change, as `history` shows it.
package struct HistoryEntry: Equatable, Sendable {
    /// Increasing, never reused: the number `history` shows and errors name.
    package var sequence: Int64
    package var time: Timestamp
    package var kind: ChangeKind
    /// For undo and redo: the entry undone or redone.
    package var target: Int64?
    package var memoCount: Int
    /// The first line of one of the memos it touched.
    package var summary: String
    /// True while the change is undone (and so can be redone).
    package var isUndone: Bool

    /// `change 12 (edit "Buy milk")`, `change 13 (sync with b.sqlite)`: how messages name the
    /// entry. The summary is memo text or a path, so its control characters are left out: the
    /// label reaches terminals.
    package var label: String {
        if let peer { return "change \(sequence) (sync with \(Self.printable(peer)))" }
        return "change \(sequence) (\(kind.rawValue) \"\(Self.printable(summary.prefix(60)))\")"
    }

    private static func printable(_ text: Substring) -> String {
        String(
            String.UnicodeScalarView(
                text.unicodeScalars.filter { scalar in
                    scalar.value >= 0x20 && !(0x7F...0x9F).contains(scalar.value)
                }))
    }

    private static func printable(_ text: String) -> String { printable(text[...]) }

    /// What a sync's entry says of the store it synced with: `with PATH`.
    package static func syncSummary(peer: String) -> String { Self.syncPrefix + peer }
    private static let syncPrefix = "with "

    /// The store a sync's entry synced with, as the sync named it; nil for other entries and
    /// for syncs recorded before entries named their peer (their summary is a memo's line).
    package var peer: String? {
        guard kind == .sync, summary.hasPrefix(Self.syncPrefix) else { return nil }
        return String(summary.dropFirst(Self.syncPrefix.count))
    }

    package init(
        sequence: Int64, time: Timestamp, kind: ChangeKind, target: Int64?, memoCount: Int,
        summary: String, isUndone: Bool
    ) {
        self.sequence = sequence
        self.time = time
        self.kind = kind
        self.target = target
        self.memoCount = memoCount
        self.summary = summary
        self.isUndone = isUndone
    }
}
