import MemoStore

/// `edit` with filters and no id, and `tag --rename` (docs/REFERENCE.md, Editing several
/// memos at once).
extension Notebook {
    /// Opens the selected memos in one editor buffer (`BulkEditBuffer`) and applies what the
    /// saved buffer asks for (`BulkEditPlan`) as one recorded change. A buffer that cannot be
    /// applied, in whole, changes nothing, and its text is kept in a private file the error
    /// names. Where no one can be asked (scripts, the server), it fails as `edit ID` without
    /// text does there.
    func editMany(_ selection: MemoSelection) throws -> Outcome {
        let memos = try selectedMemos(selection)
        guard !memos.isEmpty else { return .unchanged("nothing to edit: no memo matches") }
        let source = try textSource(for: "edit")
        let buffer = BulkEditBuffer.write(memos.map { ($0.id, displayTime.format($0.insertDate), $0.content) })
        let saved = try source.buffer(current: buffer)
        do {
            let plan = try BulkEditPlan(opened: memos.map { ($0.id, $0.content) }, blocks: BulkEditBuffer.read(saved))
            if plan.isEmpty {
                return .unchanged(
                    "nothing changed: the \(memos.count == 1 ? "memo is" : "\(memos.count) memos are") as they were")
            }
            return .bulkEdited(try apply(plan, opened: memos))
        } catch {
            let kept: String
            do {
                kept = "the edited text is kept in \(try source.keep(saved))"
            } catch let failure {
                kept = "the edited text could not be kept: \(failure)"
            }
            throw CommandError.invalid("\(error); nothing changed: \(kept)")
        }
    }

    /// The memos a selection names, in its order, each once.
    private func selectedMemos(_ selection: MemoSelection) throws -> [Memo] {
        switch selection {
        case .listed(let arguments):
            return try store.memos(query(for: arguments)).collect()
        case .ids(let ids):
            var unique: [Int64] = []
            for id in ids where !unique.contains(id) { unique.append(id) }
            return try store.existingMemos(ids: unique)
        }
    }

    /// Writes `plan` as one change, after checking, in the same transaction, that every memo
    /// the buffer opened is still the version it was (another process may have saved one
    /// meanwhile: that refuses the whole plan, as `editIfStill` refuses one save).
    private func apply(_ plan: BulkEditPlan, opened: [Memo]) throws -> BulkEditSummary {
        try store.recordingChange(.bulkEdit, at: changeTime) {
            let changed = try opened.filter { try store.memo(id: $0.id).map(MemoFileBase.init) != MemoFileBase($0) }
            if !changed.isEmpty { throw BulkEditProblem.changedMeanwhile(changed.map(\.id)) }
            var summary = BulkEditSummary()
            for edit in plan.edits {
                try store.updateContent(id: edit.id, to: edit.text, at: clock.now())
                summary.edited.append(edit.id)
            }
            if !plan.deletions.isEmpty { summary.deleted = try store.delete(ids: plan.deletions, at: changeTime).ids }
            for text in plan.additions {
                let draft = MemoDraft(uuid: try freshUUID(), content: text, insertDate: clock.now())
                summary.added.append(try store.insert(draft).id)
            }
            return summary
        }
    }

    /// `tag --rename OLD NEW`: every memo's tag `OLD`, inline ones in texts too, becomes `NEW`.
    func renameTag(_ old: String, to new: String) throws -> Outcome {
        .tagRenamed(from: old, to: new, memos: try store.renameTag(old, to: new, at: changeTime))
    }
}
