/// How a memo row holds its version (`MemoVersion`): the version a new memo starts with, and
/// the `support` column, which the writer and its sync part read and write alike.
extension MemoVersion {
    /// The first version of a new memo `draft`: the version its source holds (an import that
    /// carried one), the names of its state (an import that did not), or change `facts.seq` of
    /// this store counted beside the names of its state; nothing while the store keeps no
    /// versions.
    static func first(
        of draft: MemoDraft, explicitTags: [String], facts: SyncStamp?, origin: MemoTable.Origin
    ) -> MemoVersion {
        let textName = StateDigest.text(
            content: draft.content, insertDate: draft.insertDate.millisecondsSince1970,
            updateDate: draft.updateDate?.millisecondsSince1970)
        let tagsName = StateDigest.tags(explicitTags)
        func version(
            _ seq: Int64, text: [String: Int64], tags: [String: Int64], textBy: String, tagsBy: String
        ) -> MemoVersion {
            // Each dictionary made at once: an import makes these for every memo.
            MemoVersion(
                text: VersionVector(text), tags: VersionVector(tags),
                support: VersionVector(seq == 0 ? [:] : textBy == tagsBy ? [textBy: seq] : [textBy: seq, tagsBy: seq]),
                textBy: textBy, textSeq: seq,
                tagsAddedBy: explicitTags.isEmpty
                    ? [:]
                    : Dictionary(explicitTags.map { ($0, MemoVersion.Dot(by: tagsBy, seq: seq)) }) { first, _ in
                        first
                    },
                changedAt: facts?.clock ?? 0, changedBy: facts?.store ?? "")
        }
        switch origin {
        case .imported(let carried?):
            return carried
        case .imported(nil):
            return version(1, text: [textName: 1], tags: [tagsName: 1], textBy: textName, tagsBy: tagsName)
        case .thisStore:
            guard let facts else { return version(0, text: [:], tags: [:], textBy: "", tagsBy: "") }
            return version(
                facts.seq, text: [facts.store: facts.seq, textName: 1], tags: [facts.store: facts.seq, tagsName: 1],
                textBy: facts.store, tagsBy: facts.store)
        }
    }

    /// A memo's support as its column holds it: NULL for none yet.
    static func supportValue(_ support: VersionVector) -> SQLiteValue {
        support.counts.isEmpty ? .null : .text(support.json)
    }

    /// A memo's support (SQL on a row of `memo`): its column, or for a memo from before
    /// version 7, all it has seen (`version` and `tags_version` joined), as before.
    static let supportSQL = """
        coalesce(memo.support, (SELECT json_group_object(key, most) FROM (
            SELECT key, max(value) AS most FROM (SELECT key, value FROM json_each(memo.version)
                                                 UNION ALL SELECT key, value FROM json_each(memo.tags_version)) GROUP BY key)))
        """
}
