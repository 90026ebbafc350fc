/// What a saved bulk-edit buffer asks for, measured against the memos it was opened with:
/// a changed text is an edit, an unchanged one nothing, a memo whose header is gone a
/// delete, a text under `%% new` an addition (a blank one adds nothing).
package struct BulkEditPlan: Equatable, Sendable {
    package struct Edit: Equatable, Sendable {
        package var id: Int64
        package var text: String
    }

    package var edits: [Edit] = []
    package var deletions: [Int64] = []
    package var additions: [String] = []

    package var isEmpty: Bool { edits.isEmpty && deletions.isEmpty && additions.isEmpty }

    /// - Parameter opened: the memos the buffer was written with, each id and its text then.
    package init(opened: [(id: Int64, text: String)], blocks: [BulkEditBuffer.Block]) throws(BulkEditProblem) {
        guard !blocks.isEmpty else { throw .noHeader }
        var saved: [Int64: String] = [:]
        let openedIDs = Set(opened.map(\.id))
        for block in blocks {
            switch block {
            case .memo(let id, let text):
                guard openedIDs.contains(id) else { throw .unknownMemo(id) }
                saved[id] = text
            case .new(let text):
                if !text.allSatisfy(\.isWhitespace) { additions.append(text) }
            }
        }
        for memo in opened {
            guard let text = saved[memo.id] else {
                deletions.append(memo.id)
                continue
            }
            if text.allSatisfy(\.isWhitespace) { throw .emptyText(memo.id) }
            if text != memo.text { edits.append(Edit(id: memo.id, text: text)) }
        }
    }
}
