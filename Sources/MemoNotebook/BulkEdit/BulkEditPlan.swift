/// What a saved bulk-edit buffer asks for, measured against the memos it was opened with:
/// a changed text is an edit, an unchanged one nothing, a memo whose header is gone a
/// delete (in the editor's buffer only), a text under `%% new` an addition (a blank one adds
/// nothing). A header naming a version its memo no longer has refuses the whole plan.
package struct BulkEditPlan: Equatable, Sendable {
    package struct Edit: Equatable, Sendable {
        package var id: Int64
        package var text: String
    }

    /// A memo as the buffer was opened with it.
    package struct Opened: Sendable {
        package var id: Int64
        package var text: String
        /// `MemoFileBase.fingerprint`, what its header's `v:` names.
        package var version: String

        package init(id: Int64, text: String, version: String) {
            self.id = id
            self.text = text
            self.version = version
        }
    }

    package var edits: [Edit] = []
    package var deletions: [Int64] = []
    package var additions: [String] = []

    package var isEmpty: Bool { edits.isEmpty && deletions.isEmpty && additions.isEmpty }

    /// - Parameters:
    ///   - opened: the memos the buffer was opened with: those the editor showed, or, for a
    ///     buffer read from standard input, those the filters select now.
    ///   - deletesLeftOut: whether a memo of `opened` the buffer leaves out is deleted: so in
    ///     the editor's buffer, which showed them all; a buffer from standard input (a kept
    ///     buffer, or a few sections a script wrote) names what it changes, and deletes nothing.
    package init(
        opened: [Opened], blocks: [BulkEditBuffer.Block], deletesLeftOut: Bool = true
    )
        throws(BulkEditProblem)
    {
        guard !blocks.isEmpty else { throw .noHeader }
        var saved: [Int64: String] = [:]
        var stale: [Int64] = []
        let versions = Dictionary(uniqueKeysWithValues: opened.map { ($0.id, $0.version) })
        for block in blocks {
            switch block {
            case .memo(let id, let text, let version):
                guard let current = versions[id] else { throw .unknownMemo(id) }
                if let version, version != current { stale.append(id) }
                saved[id] = text
            case .new(let text):
                if !text.allSatisfy(\.isWhitespace) { additions.append(text) }
            }
        }
        if !stale.isEmpty { throw .changedSinceWritten(stale) }
        for memo in opened {
            guard let text = saved[memo.id] else {
                if deletesLeftOut { deletions.append(memo.id) }
                continue
            }
            if text.allSatisfy(\.isWhitespace) { throw .emptyText(memo.id) }
            if text != memo.text { edits.append(Edit(id: memo.id, text: text)) }
        }
    }
}
