/// How text output says what a bulk edit did: `edited #3 #5; deleted #7; added #9`, naming
/// only what happened, or that nothing did.
enum BulkEditWording {
    static func line(_ summary: BulkEditSummary) -> String {
        if summary.isEmpty {
            return summary.unchanged == 1
                ? "nothing changed: the memo is as it was"
                : "nothing changed: the \(summary.unchanged) memos are as they were"
        }
        return [("edited", summary.edited), ("deleted", summary.deleted), ("added", summary.added)]
            .filter { !$0.1.isEmpty }
            .map { verb, ids in verb + " " + ids.map { "#\($0)" }.joined(separator: " ") }
            .joined(separator: "; ")
    }
}
