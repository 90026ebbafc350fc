import FoundationEssentials

/// A memo's version as its store keeps it for sync (docs/REFERENCE.md, Sync): the versions of its
/// text and of its explicit tags, the change that wrote the text and the one that added each
/// explicit tag, and the time and store of its latest change. An export carries it (the `sync`
/// member of each record), so a store made by importing the file holds the very version its source
/// holds, even when the source had synced before: an edit, untag or delete made on the copy
/// is then newer than the source's unchanged memo, as docs/REFERENCE.md's Sync "two versions with
/// the same text, tags and dates are one version" asks. Without it an import can only name the
/// state (`StateDigest`), which a source that synced before does not recognise as its own version.
package struct MemoVersion: Equatable, Sendable {
    /// A change: a store (or a state's name) and its count.
    package struct Dot: Equatable, Sendable, Codable {
        package var by: String
        package var seq: Int64
    }

    package var text: VersionVector
    package var tags: VersionVector
    /// The changes that keep the memo alive (`SyncRecord.support`).
    package var support: VersionVector
    package var textBy: String
    package var textSeq: Int64
    /// The change that added each explicit tag, by name.
    package var tagsAddedBy: [String: Dot]
    package var changedAt: Int64
    package var changedBy: String

    /// The version that a record's `sync` member (JSON text) describes, or nil when it is
    /// not one: another program, or a hand, may have written anything there.
    package init?(json: String) {
        guard let stored = try? JSONDecoder().decode(Stored.self, from: Data(json.utf8)) else { return nil }
        self.init(
            text: VersionVector(stored.text), tags: VersionVector(stored.tags), support: VersionVector(stored.support),
            textBy: stored.textBy, textSeq: stored.textSeq, tagsAddedBy: stored.tagsAddedBy,
            changedAt: stored.changedAt,
            changedBy: stored.changedBy)
    }

    package init(
        text: VersionVector, tags: VersionVector, support: VersionVector, textBy: String, textSeq: Int64,
        tagsAddedBy: [String: Dot], changedAt: Int64, changedBy: String
    ) {
        self.text = text
        self.tags = tags
        self.support = support
        self.textBy = textBy
        self.textSeq = textSeq
        self.tagsAddedBy = tagsAddedBy
        self.changedAt = changedAt
        self.changedBy = changedBy
    }

    /// The JSON layout of `jsonSQL`: versions as plain objects of counts.
    private struct Stored: Decodable {
        var text: [String: Int64]
        var tags: [String: Int64]
        var support: [String: Int64]
        var textBy: String
        var textSeq: Int64
        var tagsAddedBy: [String: Dot]
        var changedAt: Int64
        var changedBy: String
    }

    /// Whether this is the version of a memo with this text, dates and explicit tags: its
    /// versions name that state (every change that writes a state names it) and count the
    /// changes it says wrote the text and added each tag. A record edited by hand after the
    /// export fails this, and is imported as a state of its own.
    package func describes(content: String, insertDate: Int64, updateDate: Int64?, explicitTags: [String]) -> Bool {
        func counts(_ vector: VersionVector, _ dot: Dot) -> Bool {
            !dot.by.isEmpty && dot.seq >= 1 && vector.count(of: dot.by) >= dot.seq
        }
        return [text, tags, support].allSatisfy { $0.counts.allSatisfy { !$0.key.isEmpty && $0.value >= 1 } }
            && !changedBy.isEmpty
            && text.count(of: StateDigest.text(content: content, insertDate: insertDate, updateDate: updateDate)) >= 1
            && tags.count(of: StateDigest.tags(explicitTags)) >= 1
            && counts(text, Dot(by: textBy, seq: textSeq)) && !support.counts.isEmpty
            && text.joined(with: tags).includes(support)
            && Set(tagsAddedBy.keys) == Set(explicitTags) && tagsAddedBy.values.allSatisfy { counts(tags, $0) }
    }

    /// The SQL that writes a memo row's version in the layout `init(json:)` reads. NULL for a
    /// memo of a store that keeps no versions yet (its first sync names it by its state), and
    /// for one whose version is only the names of its state, as an import of the record
    /// derives them (`MemoTable.Origin.imported(nil)`): an export of an import is then the
    /// file it was imported from, and a large import exported again carries nothing more. The
    /// row keeps that fact (`state_named`, schema 13), so an export hashes no text.
    static let jsonSQL = """
        CASE WHEN memo.change_seq > 0 AND NOT memo.state_named THEN json_object(
            'text', json(memo.version), 'tags', json(memo.tags_version), 'support', json(\(MemoVersion.supportSQL)),
            'textBy', memo.text_by, 'textSeq', memo.text_seq,
            'tagsAddedBy', (SELECT json_group_object(name, json_object('by', added_by, 'seq', added_seq))
                            FROM memo_tag WHERE memo_id = memo.id AND inline = 0),
            'changedAt', memo.changed_at, 'changedBy', memo.changed_by) END
        """
}
