extension SyncRecord {
    /// The two sides' states of one memo made one (docs/REFERENCE.md's Sync rules). Text and tags
    /// merge apart. A text that has seen the other's changes wins; two concurrent texts: the later
    /// wins and the other, when it differs, is kept as a new memo tagged `conflict`. Tags:
    /// those that have seen the other's changes win; concurrent ones keep every tag either
    /// side added and drop one that a side removed after seeing it added. A live memo beats
    /// a concurrent delete (a delete removes only what it saw). A version that holds the name
    /// of the other's state (`StateDigest`: the two were made by export and import) has seen
    /// it. Either way the result has seen both versions, so syncing again moves nothing.
    package static func merge(
        _ local: SyncRecord?, _ remote: SyncRecord?
    ) -> (result: SyncRecord?, conflict: SyncRecord?) {
        guard let local else { return (remote, nil) }
        guard let remote else { return (local, nil) }
        if local == remote { return (local, nil) }
        switch (local.live, remote.live) {
        case (nil, nil):
            return (bothDeleted(local, remote), nil)
        case (_?, nil):
            return (livingOrDeleted(local, deleted: remote), nil)
        case (nil, _?):
            return (livingOrDeleted(remote, deleted: local), nil)
        case (let mine?, let theirs?):
            return bothLive(local, mine, remote, theirs)
        }
    }

    private static func bothDeleted(_ one: SyncRecord, _ other: SyncRecord) -> SyncRecord {
        if one.version.includes(other.version) { return one }
        if other.version.includes(one.version) { return other }
        var later = one.isLater(than: other) ? one : other
        later.version = one.version.joined(with: other.version)
        // The deleted text the other side had not seen; the later's when neither had.
        let oneIsNewer = one.deletedText.map { !other.version.saw($0) } ?? false
        let otherIsNewer = other.deletedText.map { !one.version.saw($0) } ?? false
        if oneIsNewer != otherIsNewer { later.deletedText = oneIsNewer ? one.deletedText : other.deletedText }
        // Each delete keeps the tags its side had added, for a change that revives the memo.
        later.deletedTags = keptTags(one.deletedTags, seenBy: other.version, other.deletedTags, seenBy: one.version)
            .sorted { $0.name < $1.name }
        return later
    }

    /// A delete wins over a live memo when it saw every change that keeps the memo alive (its
    /// `support`). A live memo that wins keeps its text and its text's version (a later edit
    /// elsewhere that saw this text still wins), and takes the tags the deleted side added
    /// before it deleted (merged as concurrent tags are). It has then seen the delete: its
    /// versions join what the delete saw, and only its changes the delete had not seen keep it
    /// alive, so a later delete that sees those deletes it, and a version the first delete
    /// removed cannot come back through it.
    private static func livingOrDeleted(_ living: SyncRecord, deleted: SyncRecord) -> SyncRecord {
        guard var live = living.live else { return living }
        let seen = deleted.version
        let sawText = living.textIsSeen(by: seen)
        guard seen.includes(living.support) else {
            var result = living
            result.version = living.version.joined(with: seen)
            result.tagsVersion = living.tagsVersion.joined(with: seen)
            result.support = living.support.unseen(by: seen)
            let explicit = keptTags(live.explicitTags, seenBy: seen, deleted.deletedTags, seenBy: living.tagsVersion)
            if Set(explicit.map(\.name)) != Set(live.explicitTags.map(\.name)) {
                live.tags = live.tags(withExplicit: explicit)
                result.tagsVersion = result.tagsVersion.naming(tagsOf: live)
            }
            // Text merges apart from tags: when the delete saw this text and the deleted side
            // had written a newer one, the memo that lives on has the newer text.
            if sawText, let text = deleted.deletedText, !living.version.saw(text) {
                live = live.withText(text)
                (result.textBy, result.textSeq) = (text.textBy, text.textSeq)
            }
            result.live = live
            return result
        }
        var result = deleted
        result.version = seen.joined(with: living.version).joined(with: living.tagsVersion)
        return result
    }

    private static func bothLive(
        _ local: SyncRecord, _ mine: Live, _ remote: SyncRecord, _ theirs: Live
    )
        -> (result: SyncRecord, conflict: SyncRecord?)
    {
        let text = TextMerge(local, mine, remote, theirs)
        var result = local.isLater(than: remote) ? local : remote
        result.version = local.version.joined(with: remote.version)
        result.tagsVersion = local.tagsVersion.joined(with: remote.tagsVersion)
        result.support = local.support.joined(with: remote.support)
        var live = text.winner
        live.tags = mergedTags(local, mine, remote, theirs, inlineFrom: text.winner)
        result.live = live
        result.tagsVersion = result.tagsVersion.naming(tagsOf: live)
        (result.textBy, result.textSeq) = (text.winnerRecord.textBy, text.winnerRecord.textSeq)
        return (result, text.loser.flatMap { conflictCopy(of: $0, uuid: local.uuid, by: text.loserRecord) })
    }

    // MARK: Tags

    /// Explicit tags merged (see `merge`), and the winning text's inline ones.
    private static func mergedTags(
        _ local: SyncRecord, _ mine: Live, _ remote: SyncRecord, _ theirs: Live,
        inlineFrom text: Live
    ) -> [Tag] {
        let explicit: [Tag]
        if local.sawTags(of: remote) && !remote.sawTags(of: local) {
            explicit = mine.explicitTags
        } else if remote.sawTags(of: local) && !local.sawTags(of: remote) {
            explicit = theirs.explicitTags
        } else {
            explicit = keptTags(
                mine.explicitTags, seenBy: remote.tagsVersion, theirs.explicitTags, seenBy: local.tagsVersion)
        }
        return text.tags(withExplicit: explicit)
    }

    /// Concurrent tag changes: a tag on both sides stays, with the dot of its later adding
    /// (the one the other side has not seen; the greater when both are new, the same
    /// everywhere); a tag on one side stays unless the other side saw it added (and so
    /// removed it).
    private static func keptTags(
        _ mine: [Tag], seenBy theirVersion: VersionVector, _ theirs: [Tag],
        seenBy myVersion: VersionVector
    ) -> [Tag] {
        let myTags = Dictionary(mine.map { ($0.name, $0) }, uniquingKeysWith: { first, _ in first })
        let theirTags = Dictionary(theirs.map { ($0.name, $0) }, uniquingKeysWith: { first, _ in first })
        return Set(myTags.keys).union(theirTags.keys).sorted().compactMap { name in
            switch (myTags[name], theirTags[name]) {
            case (let mine?, let theirs?):
                let myNew = !theirVersion.saw(mine), theirNew = !myVersion.saw(theirs)
                if myNew != theirNew { return myNew ? mine : theirs }
                return (mine.addedBy, mine.addedSeq) >= (theirs.addedBy, theirs.addedSeq) ? mine : theirs
            case (let mine?, nil):
                return theirVersion.saw(mine) ? nil : mine
            case (nil, let theirs?):
                return myVersion.saw(theirs) ? nil : theirs
            case (nil, nil):
                return nil
            }
        }
    }

    /// Whether `version` counts the change that wrote this record's text (for a text that
    /// was imported, or had no version before a first sync, the name of its state: a store
    /// made by export and import holds the same).
    func textIsSeen(by version: VersionVector) -> Bool {
        version.count(of: textBy) >= textSeq
    }

    private func sawTags(of other: SyncRecord) -> Bool {
        tagsVersion.includes(other.tagsVersion)
    }

    // MARK: Conflict copies

    /// A losing text as a memo of its own, tagged `conflict`, with the same insert date. Its
    /// uuid and versions are the names of its state (`StateDigest`), as an import's would be:
    /// stores that meet the same conflict separately make the same copy, once, and a change
    /// to the copy (an untag of `conflict`) is newer than a copy made again elsewhere.
    private static func conflictCopy(of loser: Live, uuid: String, by record: SyncRecord) -> SyncRecord {
        var live = loser
        if !live.tags.contains(where: { $0.name == "conflict" && !$0.inline }) {
            live.tags.removeAll { $0.name == "conflict" }
            live.tags.append(Tag(name: "conflict", inline: false))
            live.tags.sort { $0.name < $1.name }
        }
        let textName = live.textDigest, tagsName = StateDigest.tags(live.explicitTags.map(\.name))
        live.tags = live.tags.map {
            Tag(name: $0.name, inline: $0.inline, addedBy: $0.inline ? "" : tagsName, addedSeq: $0.inline ? 0 : 1)
        }
        var copy = SyncRecord(
            uuid: StableUUID.make(from: "conflict:" + uuid + "/" + textName), live: live,
            version: VersionVector([textName: 1]), tagsVersion: VersionVector([tagsName: 1]),
            textBy: textName, textSeq: 1, changedAt: record.changedAt, changedBy: record.changedBy)
        copy.support = VersionVector([textName: 1, tagsName: 1])
        return copy
    }

    func isLater(than other: SyncRecord) -> Bool {
        (changedAt, changedBy) > (other.changedAt, other.changedBy)
    }
}

/// The text of two live versions of a memo: the one whose side saw the other's text (its
/// version counts the change that wrote it), else the later change's, with the other kept
/// as a conflict copy when its words differ (not only its dates).
private struct TextMerge {
    let winner: SyncRecord.Live
    let winnerRecord: SyncRecord
    let loser: SyncRecord.Live?
    let loserRecord: SyncRecord

    init(_ local: SyncRecord, _ mine: SyncRecord.Live, _ remote: SyncRecord, _ theirs: SyncRecord.Live) {
        let localSaw = remote.textIsSeen(by: local.version), remoteSaw = local.textIsSeen(by: remote.version)
        let localWins: Bool
        if localSaw != remoteSaw {
            // Also for one text written twice (an undo put it back): the later writing counts.
            localWins = localSaw
        } else if mine.sameText(as: theirs) {
            localWins = (local.textBy, local.textSeq) >= (remote.textBy, remote.textSeq)
        } else {
            localWins = local.isLater(than: remote)
            // The same words at other dates (a memo moved on both sides) lose no text: no copy.
            loser = mine.content == theirs.content ? nil : localWins ? theirs : mine
            (winner, winnerRecord, loserRecord) = localWins ? (mine, local, remote) : (theirs, remote, local)
            return
        }
        loser = nil
        (winner, winnerRecord, loserRecord) = localWins ? (mine, local, remote) : (theirs, remote, local)
    }
}

extension SyncRecord.Live {
    var explicitTags: [SyncRecord.Tag] { tags.filter { !$0.inline } }

    /// `explicit` and this text's own inline tags (an explicit tag wins over the same inline
    /// one), by name.
    func tags(withExplicit explicit: [SyncRecord.Tag]) -> [SyncRecord.Tag] {
        let names = Set(explicit.map(\.name))
        return (explicit + tags.filter { $0.inline && !names.contains($0.name) }).sorted { $0.name < $1.name }
    }

    /// This memo with the text a delete kept (its content and dates), and that text's inline
    /// tags in place of this one's.
    func withText(_ text: DeletedText) -> Self {
        var live = Self(content: text.content, insertDate: text.insertDate, updateDate: text.updateDate, tags: [])
        let explicit = explicitTags
        let names = Set(explicit.map(\.name))
        live.tags =
            (explicit
            + TagName.inlineTags(in: text.content).filter { !names.contains($0) }
            .map { SyncRecord.Tag(name: $0, inline: true) }).sorted { $0.name < $1.name }
        return live
    }

    func sameText(as other: Self) -> Bool {
        content == other.content && insertDate == other.insertDate && updateDate == other.updateDate
    }

}

extension VersionVector {
    /// This version holding the name of `live`'s explicit tags (`StateDigest`), as a change
    /// that writes them does: a merge that makes a tag set no side had must name it too, or
    /// a copy of it made by export and import would be news to the stores that merged it.
    func naming(tagsOf live: SyncRecord.Live) -> VersionVector {
        joined(with: VersionVector([StateDigest.tags(live.explicitTags.map(\.name)): 1]))
    }

    /// The counts of this version that `other` has not seen.
    func unseen(by other: VersionVector) -> VersionVector {
        VersionVector(counts.filter { other.count(of: $0.key) < $0.value })
    }

    /// Whether this version counts the change that wrote a deleted memo's `text`.
    func saw(_ text: DeletedText) -> Bool {
        count(of: text.textBy) >= text.textSeq
    }

    /// Whether this version counts the change that added `tag`.
    func saw(_ tag: SyncRecord.Tag) -> Bool {
        !tag.addedBy.isEmpty && count(of: tag.addedBy) >= tag.addedSeq
    }
}
