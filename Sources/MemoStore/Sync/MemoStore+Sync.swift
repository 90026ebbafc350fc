import Foundation

/// `sync` (SPEC §4b): two stores exchange the memos each changed since they last synced
/// with each other, merge them by uuid (`SyncRecord.merge`), and each writes what it lacks
/// in one transaction of its own, recorded in its history as a `sync` change.
extension MemoStore {
    /// What a sync moved.
    package struct SyncSummary: Equatable, Sendable {
        /// Memos written to the other store, and to this one.
        package var sent = 0
        package var received = 0
        /// Versions kept as new `@conflict` memos.
        package var conflicts = 0
    }

    /// Merges this store and `other` both ways. Both are locked for writing meanwhile
    /// (another process waits); `other` commits first, so a sync stopped in between leaves
    /// this store as it was, and running it again finishes it.
    package func sync(with other: MemoStore, path: String) throws(StoreError) -> SyncSummary {
        // A sync writes to both stores: say which one cannot be written, before either is.
        for (store, storePath) in [(self, location.displayPath), (other, path)] where store.database.isReadOnly {
            throw .cannotOpen(path: storePath, reason: "the store is read-only, and a sync writes to both stores")
        }
        return try StoreError.wrapping {
            let here = try storeID(), there = try other.storeID()
            if here == there { throw StoreError.syncWithItself(path: path) }
            var summary = SyncSummary()
            var latest: Int64 = 0
            try recordingChange(.sync) {
                try other.recordingChange(.sync) {
                    let localStamp = try nextSyncStamp(at: changeTime()), remoteStamp = try other.nextSyncStamp(at: other.changeTime())
                    try adoptUnversionedMemos(localStamp)
                    try other.adoptUnversionedMemos(remoteStamp)
                    let localSeq = localStamp.seq, remoteSeq = remoteStamp.seq
                    let mine = try changedRecords(since: acknowledgedSeq(of: there))
                    let theirs = try other.changedRecords(since: other.acknowledgedSeq(of: here))
                    var seen = Set<String>(), uuids: [String] = []
                    for uuid in mine.map(\.uuid) + theirs.map(\.uuid) where seen.insert(uuid).inserted { uuids.append(uuid) }
                    for uuid in uuids {
                        let local = try record(uuid: uuid), remote = try other.record(uuid: uuid)
                        if let problem = remote?.problem { throw StoreError.invalidSyncMemo(path: path, uuid: uuid, reason: problem) }
                        if let problem = local?.problem {
                            throw StoreError.invalidSyncMemo(path: location.displayPath, uuid: uuid, reason: problem)
                        }
                        let (result, conflict) = SyncRecord.merge(local, remote)
                        guard let result else { continue }
                        latest = max(latest, result.changedAt)
                        if result != local {
                            try write(result, seq: localSeq)
                            if result.live != local?.live { summary.received += 1 }
                        }
                        if result != remote {
                            try other.write(result, seq: remoteSeq)
                            if result.live != remote?.live { summary.sent += 1 }
                        }
                        if let conflict {
                            summary.conflicts += 1
                            for store in [self, other] {
                                let existing = try store.record(uuid: conflict.uuid)
                                if let merged = SyncRecord.merge(existing, conflict).result, merged != existing {
                                    try store.write(merged, seq: store === self ? localSeq : remoteSeq)
                                }
                            }
                        }
                    }
                    try other.finishSync(with: here, clock: latest)
                }
                try finishSync(with: there, clock: latest)
            }
            return summary
        }
    }

    /// Notes that `peer` now has every change of this store, and moves the clock past the
    /// latest change seen, so a change made here next is later than all of them.
    private func finishSync(with peer: String, clock: Int64) throws {
        try database.cached("UPDATE sync_identity SET clock = max(clock, ?1)").run([.integer(clock)])
        try database.cached("INSERT OR REPLACE INTO sync_peer(peer_id, acknowledged_seq) SELECT ?1, seq FROM sync_identity")
            .run([.text(peer)])
    }

    func storeID() throws -> String {
        try database.cached("SELECT store_id FROM sync_identity").firstRow([]) { $0.string(at: 0) } ?? ""
    }

    private func acknowledgedSeq(of peer: String) throws -> Int64 {
        try database.cached("SELECT acknowledged_seq FROM sync_peer WHERE peer_id = ?1").scalarInt([.text(peer)]) ?? -1
    }

    private static let liveColumns = """
        uuid, content, insert_date, update_date, version, changed_at, changed_by,
        (SELECT json_group_array(json_array(name, inline)) FROM (SELECT name, inline FROM memo_tag WHERE memo_id = memo.id ORDER BY name))
        """

    /// The memos and tombstones changed after change number `seq`.
    private func changedRecords(since seq: Int64) throws -> [SyncRecord] {
        var records: [SyncRecord] = []
        // `change_seq > 0` lets SQLite use the partial index memo_by_change_seq.
        let live = try database.prepare("SELECT \(Self.liveColumns) FROM memo WHERE change_seq > ?1 AND change_seq > 0 ORDER BY change_seq")
        try live.bind([.integer(seq)])
        while try live.step() { records.append(Self.liveRecord(live)) }
        let dead = try database.prepare("SELECT uuid, version, changed_at, changed_by FROM memo_tombstone WHERE change_seq > ?1 ORDER BY change_seq")
        try dead.bind([.integer(seq)])
        while try dead.step() { records.append(Self.tombstone(dead)) }
        return records
    }

    /// This store's state of the memo with `uuid`, or nil when it never had it.
    private func record(uuid: String) throws -> SyncRecord? {
        if let live = try database.cached("SELECT \(Self.liveColumns) FROM memo WHERE uuid = ?1").firstRow([.text(uuid)], Self.liveRecord) {
            return live
        }
        return try database.cached("SELECT uuid, version, changed_at, changed_by FROM memo_tombstone WHERE uuid = ?1")
            .firstRow([.text(uuid)], Self.tombstone)
    }

    private static func liveRecord(_ row: Statement) -> SyncRecord {
        let pairs = (try? JSONSerialization.jsonObject(with: Data(row.string(at: 7).utf8))) as? [[Any]] ?? []
        let tags = pairs.compactMap { pair -> (String, Bool)? in
            guard pair.count == 2, let name = pair[0] as? String, let inline = pair[1] as? NSNumber else { return nil }
            return (name, inline.boolValue)
        }
        return SyncRecord(uuid: row.string(at: 0),
                          live: SyncRecord.Live(content: row.string(at: 1), insertDate: row.int64(at: 2),
                                                updateDate: row.isNull(at: 3) ? nil : row.int64(at: 3),
                                                tags: tags.map { SyncRecord.Tag(name: $0.0, inline: $0.1) }),
                          version: VersionVector(json: row.string(at: 4)), changedAt: row.int64(at: 5), changedBy: row.string(at: 6))
    }

    private static func tombstone(_ row: Statement) -> SyncRecord {
        SyncRecord(uuid: row.string(at: 0), live: nil, version: VersionVector(json: row.string(at: 1)),
                   changedAt: row.int64(at: 2), changedBy: row.string(at: 3))
    }

    /// Makes this store's memo `record.uuid` what `record` says, as change number `seq`,
    /// staging its before-image so the sync can be undone here.
    private func write(_ record: SyncRecord, seq: Int64) throws {
        let existing = try database.cached("SELECT id FROM memo WHERE uuid = ?1").scalarInt([.text(record.uuid)])
        let facts: [SQLiteValue] = [.text(record.version.json), .integer(record.changedAt), .text(record.changedBy), .integer(seq)]
        guard let live = record.live else {
            if let id = existing {
                try stageBeforeImage(of: id)
                try database.cached("DELETE FROM memo_search WHERE rowid = ?1").run([.integer(id)])
                try database.cached("DELETE FROM memo WHERE id = ?1").run([.integer(id)])
            }
            try database.cached("""
                INSERT OR REPLACE INTO memo_tombstone(uuid, version, changed_at, changed_by, change_seq) VALUES (?5, ?1, ?2, ?3, ?4)
                """).run(facts + [.text(record.uuid)])
            return
        }
        let row: [SQLiteValue] = [.text(live.content), .integer(live.insertDate), .integer(live.updateDate)]
        let id: Int64
        if let existing {
            id = existing
            try stageBeforeImage(of: id)
            try database.cached("""
                UPDATE memo SET content = ?5, insert_date = ?6, update_date = ?7, version = ?1, changed_at = ?2, changed_by = ?3,
                                change_seq = ?4 WHERE id = ?8
                """).run(facts + row + [.integer(id)])
            try database.cached("UPDATE memo_search SET text = ?2 WHERE rowid = ?1").run([.integer(id), .text(SearchText.indexed(live.content))])
            try database.cached("DELETE FROM memo_tag WHERE memo_id = ?1").run([.integer(id)])
        } else {
            try database.cached("""
                INSERT INTO memo(uuid, content, insert_date, update_date, version, changed_at, changed_by, change_seq)
                VALUES (?8, ?5, ?6, ?7, ?1, ?2, ?3, ?4)
                """).run(facts + row + [.text(record.uuid)])
            id = database.lastInsertedRowID
            try database.cached("INSERT OR IGNORE INTO temp.pending_change(memo_id, before) VALUES (?1, NULL)").run([.integer(id)])
            try database.cached("INSERT INTO memo_search(rowid, text) VALUES (?1, ?2)").run([.integer(id), .text(SearchText.indexed(live.content))])
        }
        for tag in live.tags { try attach([tag.name], to: id, inline: tag.inline) }
        try database.cached("DELETE FROM memo_tombstone WHERE uuid = ?1").run([.text(record.uuid)])
    }
}
