import MemoStore

/// `edit` with filters and no id, and `tag --rename` (docs/REFERENCE.md, Editing several
/// memos at once).
extension Notebook {
    /// Opens the selected memos in one editor buffer (`BulkEditBuffer`) and applies what the
    /// saved buffer asks for (`BulkEditPlan`) as one recorded change. A buffer that cannot be
    /// applied, in whole, changes nothing, and what was saved is kept in a private file the
    /// error names. A buffer read from standard input instead deletes nothing it leaves out.
    /// Where no one can be asked (scripts, the server), it is refused.
    func editMany(_ selection: MemoSelection) throws -> Outcome {
        let memos = try selectedMemos(selection)
        guard !memos.isEmpty else { return .unchanged("nothing to edit: no memo matches") }
        let source = try editorSource(for: "edit", instead: "edit ID TEXT, one memo at a time")
        // Each text as a person here reads it (`show`), which the edits are of.
        let opened = try memos.map {
            BulkEditPlan.Opened(id: $0.id, text: try store.readableText(of: $0), version: MemoFileBase($0).fingerprint)
        }
        let buffer = BulkEditBuffer.write(
            zip(memos, opened).map {
                BulkEditBuffer.Section(
                    id: $1.id, date: displayTime.format($0.insertDate), version: $1.version, text: $1.text)
            })
        return try source.withSaved(startingFrom: buffer) { saved, fromStandardInput in
            let plan = try BulkEditPlan(
                opened: opened, blocks: BulkEditBuffer.read(saved), deletesLeftOut: !fromStandardInput)
            if plan.isEmpty { return .bulkEdited(BulkEditSummary(unchanged: memos.count)) }
            return .bulkEdited(try apply(plan, opened: memos))
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
                try store.updateContent(id: edit.id, to: edit.text, reading: .asReadHere, at: clock.now())
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
