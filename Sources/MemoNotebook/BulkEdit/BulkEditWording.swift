/// How text output says what a bulk edit did: `edited #3 #5; deleted #7; added #9`, naming
/// only what happened.
enum BulkEditWording {
    static func line(_ summary: BulkEditSummary) -> String {
        [("edited", summary.edited), ("deleted", summary.deleted), ("added", summary.added)]
            .filter { !$0.1.isEmpty }
            .map { verb, ids in verb + " " + ids.map { "#\($0)" }.joined(separator: " ") }
            .joined(separator: "; ")
    }
}
