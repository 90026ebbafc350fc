import MemoStore

extension SyncRecord {
    /// The two sides' states of one memo made one (SPEC §4b's rules). A version that has seen
    /// the other's changes wins. Concurrent changes: a live memo beats a delete (a delete
    /// removes only what it saw); between two live versions the later one wins and the
    /// other's text, when it differs, is kept as a new memo tagged `conflict`. Either way the
    /// result has seen both versions, so syncing again moves nothing.
    static func merge(_ local: SyncRecord?, _ remote: SyncRecord?) -> (result: SyncRecord?, conflict: SyncRecord?) {
        guard let local else { return (remote, nil) }
        guard let remote else { return (local, nil) }
        if local.version.includes(remote.version) && local.version != remote.version { return (local, nil) }
        if remote.version.includes(local.version) && local.version != remote.version { return (remote, nil) }
        if local == remote { return (local, nil) }
        let later = local.isLater(than: remote) ? local : remote
        let earlier = later == local ? remote : local
        let version = local.version.joined(with: remote.version)
        switch (later.live, earlier.live) {
        case (_?, nil):
            return (later.with(version: version), nil)
        case (nil, _?):
            return (earlier.with(version: version), nil)
        case (nil, nil):
            return (later.with(version: version), nil)
        case (let winner?, let loser?):
            let conflict = loser.content == winner.content ? nil : earlier.conflictCopy()
            return (later.with(version: version), conflict)
        }
    }

    private func isLater(than other: SyncRecord) -> Bool {
        (changedAt, changedBy) > (other.changedAt, other.changedBy)
    }

    private func with(version: VersionVector) -> SyncRecord {
        var record = self
        record.version = version
        return record
    }

    /// This version as a memo of its own, tagged `conflict`, with the same insert date. Its
    /// uuid is derived from the memo's and the change's, so stores that meet the same
    /// conflict separately make the same copy, once.
    private func conflictCopy() -> SyncRecord? {
        guard var live else { return nil }
        if !live.tags.contains(where: { $0.name == "conflict" }) {
            live.tags.append(Tag(name: "conflict", inline: false))
            live.tags.sort { $0.name < $1.name }
        }
        return SyncRecord(uuid: StableUUID.make(from: "conflict:" + uuid + "/" + String(changedAt) + "/" + changedBy), live: live,
                          version: VersionVector(), changedAt: changedAt, changedBy: changedBy)
    }
}
