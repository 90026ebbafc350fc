import MemoStore

/// What a sync moved.
package struct SyncSummary: Equatable, Sendable {
    /// Memos written to the other store, and to this one.
    package var sent = 0
    package var received = 0
    /// Versions kept as new `@conflict` memos.
    package var conflicts = 0
}

/// The sync exchange (docs/REFERENCE.md, Sync): each side tells the other what changed since the
/// other last received its changes (`SyncCursor`), each record is merged by uuid
/// (`SyncRecord.merge`), and each side writes what it lacks in one transaction of its own,
/// recorded in its history as a `sync` change, together with how far it now has the other's
/// changes. Nothing one side writes assumes the other's write succeeds: when either fails to
/// commit, the next sync sends again what that side lacks (a cursor the other side does not
/// hold makes it send all, as it does for a store restored from a backup or copied). Both
/// are locked for writing meanwhile (another process waits).
package enum Synchronizer {
    /// Why a sync cannot run with a store that can only be read.
    package static let readOnlyReason = "the store is read-only, and a sync writes to both stores"

    package static func sync(
        _ local: any SyncEndpoint, with remote: any SyncEndpoint, at time: Timestamp
    ) throws(StoreError) -> SyncSummary {
        let here = try local.identity(), there = try remote.identity()
        // A sync writes to both stores: say which one cannot be written, before either is.
        for (side, card) in [(local, here), (remote, there)] where !card.isWritable {
            throw .cannotOpen(path: side.displayPath, reason: readOnlyReason)
        }
        if here.file.isEmpty && there.file.isEmpty ? here.storeID == there.storeID : here.file == there.file {
            throw .syncWithItself(path: remote.displayPath)
        }
        do {
            let localID = try local.open(at: time, peer: there.storeID)
            let remoteID = try remote.open(at: time, peer: localID)
            let mine = try local.changes(since: remote.cursor(of: localID), at: time)
            let theirs = try remote.changes(since: local.cursor(of: remoteID), at: time)
            var exchange = Exchange(
                local: SideState(local, changed: mine.records), remote: SideState(remote, changed: theirs.records))
            try exchange.merge(mine.records + theirs.records)
            // A side that ends with every memo as the other writes it has that side's sync
            // change too: the next sync does not send back what this one moved.
            let theirsReached = exchange.local.holds(exchange.remote.writes) ? theirs.cursorAfterWrites : theirs.cursor
            let mineReached = exchange.remote.holds(exchange.local.writes) ? mine.cursorAfterWrites : mine.cursor
            try local.apply(
                exchange.local.writes, received: theirsReached, from: theirs.storeID, clock: exchange.latest)
            try remote.apply(exchange.remote.writes, received: mineReached, from: mine.storeID, clock: exchange.latest)
            try remote.commit(peer: local.displayPath)
            try local.commit(peer: remote.displayPath)
            return exchange.summary
        } catch {
            remote.abandon()
            local.abandon()
            throw error
        }
    }
}

/// The merge of one sync, worked out in memory from the two sides' records.
private struct Exchange {
    var local: SideState
    var remote: SideState
    var summary = SyncSummary()
    /// The latest change time of any merged memo: both clocks move past it.
    var latest: Int64 = 0

    /// Merges every memo either side changed, in the order they were reported.
    mutating func merge(_ changed: [SyncRecord]) throws(StoreError) {
        var seen = Set<String>(), uuids: [String] = []
        for record in changed where seen.insert(record.uuid).inserted { uuids.append(record.uuid) }
        try local.load(uuids)
        try remote.load(uuids)
        for uuid in uuids { try merge(uuid) }
    }

    private mutating func merge(_ uuid: String) throws(StoreError) {
        let mine = try local.state(of: uuid), theirs = try remote.state(of: uuid)
        for (side, record) in [(remote, theirs), (local, mine)] {
            if let problem = record?.problem {
                throw .invalidSyncMemo(path: side.displayPath, uuid: uuid, reason: problem)
            }
        }
        let (result, conflict) = SyncRecord.merge(mine, theirs)
        guard let result else { return }
        latest = max(latest, result.changedAt)
        if result != mine {
            local.write(result)
            if result.live != mine?.live { summary.received += 1 }
        }
        if result != theirs {
            remote.write(result)
            if result.live != theirs?.live { summary.sent += 1 }
        }
        guard let conflict else { return }
        summary.conflicts += 1
        try local.keep(conflict)
        try remote.keep(conflict)
    }
}

/// One side's records as this sync sees them: read once, then changed by the merge; and
/// the writes the side gets, in the order the merge made them, each memo once.
private struct SideState {
    let endpoint: any SyncEndpoint
    private var known: [String: SyncRecord?] = [:]
    private(set) var writes: [SyncRecord] = []
    private var writeIndex: [String: Int] = [:]

    /// A side whose `changed` records were just read in this sync's transaction: they are
    /// its state of those memos, so they are not read again.
    init(_ endpoint: any SyncEndpoint, changed: [SyncRecord]) {
        self.endpoint = endpoint
        // A memo listed live and as a tombstone (another program wrote both) is live, as a
        // read by uuid says.
        for record in changed where known[record.uuid] == nil { known[record.uuid] = record }
    }

    var displayPath: String { endpoint.displayPath }

    /// Reads the side's records of those of `uuids` it has not read yet, in one call.
    mutating func load(_ uuids: [String]) throws(StoreError) {
        let unread = uuids.filter { known[$0] == nil }
        guard !unread.isEmpty else { return }
        for uuid in unread { known[uuid] = .some(nil) }
        for record in try endpoint.records(unread) { known[record.uuid] = record }
    }

    mutating func state(of uuid: String) throws(StoreError) -> SyncRecord? {
        if let state = known[uuid] { return state }
        try load([uuid])
        return known[uuid] ?? nil
    }

    /// Whether the side ends the sync with each of `records` as it stands.
    func holds(_ records: [SyncRecord]) -> Bool {
        records.allSatisfy { record in
            if case .some(.some(let held)) = known[record.uuid] { held == record } else { false }
        }
    }

    mutating func write(_ record: SyncRecord) {
        known[record.uuid] = record
        if let index = writeIndex[record.uuid] {
            writes[index] = record
        } else {
            writeIndex[record.uuid] = writes.count
            writes.append(record)
        }
    }

    /// Keeps a conflict copy: merged with what the side has of that uuid already (the same
    /// conflict met before), written when that changes anything.
    mutating func keep(_ conflict: SyncRecord) throws(StoreError) {
        let existing = try state(of: conflict.uuid)
        if let merged = SyncRecord.merge(existing, conflict).result, merged != existing { write(merged) }
    }
}
