import MemoStore

/// Ids alone, one a line, for pipes (`memo list --ids | xargs memo delete`): the same under
/// `--json`, where each line is a JSON number, so JSON Lines readers take them too
/// (docs/REFERENCE.md, Picking memos).
extension OutcomeRenderer {
    /// Writes the ids of `list --ids`, `search --ids` and `pick`.
    func writeIDs(of outcome: Outcome, to output: OutputSink) throws(StoreError) {
        switch outcome {
        case .memoIDs(let cursor, _): try forEachRow(in: cursor, to: output) { output.write("\($0.id)\n") }
        case .picked(let ids): output.write(ids.map { "\($0)\n" }.joined())
        default: break
        }
    }
}
