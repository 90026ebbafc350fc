import Foundation

/// One memo as one side of a sync has it: live, or a tombstone, with its version.
struct SyncRecord: Equatable {
    struct Live: Equatable {
        var content: String
        var insertDate: Int64
        var updateDate: Int64?
        /// Tag names and whether each is inline, by name.
        var tags: [Tag]
    }

    struct Tag: Equatable {
        var name: String
        var inline: Bool
    }

    var uuid: String
    /// Nil for a deleted memo.
    var live: Live?
    var version: VersionVector
    /// The hybrid-logical time and the store of the change that made this state: which of
    /// two concurrent changes is later (the store id breaks ties, the same way everywhere).
    var changedAt: Int64
    var changedBy: String

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

extension SyncRecord {
    /// Why this record cannot enter a store, or nil: a store that another program wrote may
    /// hold what memo never would (an empty text, an odd uuid, a date in year 300000, a tag
    /// with a space), and a sync must not spread it.
    var problem: String? {
        guard Self.isCanonicalUUID(uuid) else { return "its uuid '\(uuid)' is not an RFC 4122 uuid" }
        guard let live else { return nil }
        do {
            try MemoContent.validate(live.content)
        } catch {
            return error.description
        }
        for date in [live.insertDate] + (live.updateDate.map { [$0] } ?? [])
        where !Timestamp.representable.contains(Timestamp(millisecondsSince1970: date)) {
            return "its date \(date) ms is outside the years 0001 to 9999"
        }
        for tag in live.tags where (try? TagName.normalize(tag.name)) != tag.name {
            return "its tag '\(tag.name)' is not a valid tag name"
        }
        return nil
    }

    /// Lower-case 8-4-4-4-12 hexadecimal, as every memo store writes uuids.
    private static func isCanonicalUUID(_ text: String) -> Bool {
        UUID(uuidString: text)?.uuidString.lowercased() == text
    }
}
