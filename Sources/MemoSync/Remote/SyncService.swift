import MemoStore

/// `memo sync --serve PATH`, the remote half of a sync through ssh: answers the requests of
/// one `RemoteSyncEndpoint` on `channel` with the store at `location`, and does nothing
/// else, so a login that may run only this command can touch only that store, and only
/// through the exchange. Its hello says whether the store is encrypted (`SyncHello.sealed`).
/// The store is opened after the hellos agree (a refused client
/// leaves it untouched, not even created). Whatever was not committed is rolled back when
/// the input ends, however it ends.
package final class SyncService {
    private let location: StoreLocation
    private let displayPath: String
    private let channel: LineChannel
    private var opened: Result<LocalSyncEndpoint, StoreError>?
    /// How far the exchange got: a store is written only between `open` and `commit`, in
    /// the order of `Synchronizer`, so a request out of that order is refused.
    private var stage = Stage.greeted

    private enum Stage: Int, Comparable {
        case greeted, opened, changesRead, applied, committed

        static func < (a: Stage, b: Stage) -> Bool { a.rawValue < b.rawValue }
    }

    /// How this store's history names the client of a sync served here: the exchange carries
    /// no path of the client's store.
    static let peerName = "a store through ssh"

    package init(location: StoreLocation, displayPath: String, channel: LineChannel) {
        self.location = location
        self.displayPath = displayPath
        self.channel = channel
    }

    /// Serves until the client's input ends; the exit status: 0 when the exchange ended
    /// well (committed, abandoned, or never begun), 1 when a hello or request was refused
    /// or the input ended in the middle of one.
    package func run(hello: SyncHello) -> Int32 {
        defer { closeStore() }
        var hello = hello
        // Read from the file's first bytes, so the client may refuse (or ask its user) before
        // the store is opened or created.
        hello.sealed = if case .file(let path) = location { MemoStore.isSealedFile(at: path) } else { false }
        do {
            try channel.send(WireCoding.encode(SyncHello.Line(hello)))
            guard let line = try channel.receiveLine(maximumBytes: LineChannel.maximumHelloBytes) else { return 1 }
            guard let theirs = WireCoding.decode(SyncHello.Line.self, from: line)?.hello else {
                try reply(.failed(message: "expected the hello of a memo sync client", storeUnusable: false))
                return 1
            }
            guard hello.agreedVersion(with: theirs) != nil else {
                // Told as the client's user reads it: this side is "there".
                try reply(.failed(message: theirs.refusal(of: hello), storeUnusable: false))
                return 1
            }
            while let line = try channel.receiveLine() {
                guard let request = WireCoding.decode(SyncRequest.self, from: line) else {
                    try reply(.failed(message: "not a request of sync protocol 1", storeUnusable: false))
                    return 1
                }
                if let problem = outOfOrder(request) {
                    try reply(.failed(message: problem + ": not the order of sync protocol 1", storeUnusable: false))
                    return 1
                }
                let (answer, records) = try answer(request)
                try reply(answer, records: records)
            }
            return 0
        } catch {
            return 1
        }
    }

    /// Rolls back what was not committed and closes the store; a store file this exchange
    /// created and did not commit to is removed, as a failed sync leaves no change
    /// (`CreatedStoreFile.removeIfUnused`).
    private func closeStore() {
        let uncommitted: CreatedStoreFile? = {
            guard case .success(let endpoint) = opened else { return nil }
            endpoint.abandon()
            return stage == .committed ? nil : endpoint.createdFile
        }()
        opened = nil
        uncommitted?.removeIfUnused()
    }

    private func reply(_ reply: SyncReply, records: [SyncRecord] = []) throws(LineChannel.Failure) {
        try channel.send(WireCoding.encode(reply))
        for record in records { try channel.send(WireCoding.encode(record)) }
        try channel.flush()
    }

    /// The reply to `request` and the records that follow it; a failure of the store is the
    /// `failed` reply, one of the channel ends the session.
    private func answer(_ request: SyncRequest) throws(LineChannel.Failure) -> (SyncReply, [SyncRecord]) {
        do {
            switch request {
            case .identity:
                return (.identity(card: try endpoint().identity()), [])
            case .open(let time, let peer):
                return (
                    .opened(storeID: try endpoint().open(at: Timestamp(millisecondsSince1970: time), peer: peer)), []
                )
            case .cursor(let peer):
                return (.cursor(cursor: try endpoint().cursor(of: peer)), [])
            case .changes(let since, let time):
                let changes = try endpoint().changes(since: since, at: Timestamp(millisecondsSince1970: time))
                return (
                    .changes(
                        storeID: changes.storeID, cursor: changes.cursor, cursorAfterWrites: changes.cursorAfterWrites,
                        seq: changes.seq, count: changes.records.count), changes.records
                )
            case .records(let uuids):
                let records = try endpoint().records(uuids)
                return (.records(count: records.count), records)
            case .apply(let count, let received, let peer, let clock):
                let records = try receiveRecords(count)
                try endpoint().apply(records, received: received, from: peer, clock: clock)
                return (.done, [])
            case .commit:
                try endpoint().commit(peer: Self.peerName)
                return (.done, [])
            case .abandon:
                if case .success(let endpoint) = opened { endpoint.abandon() }
                return (.done, [])
            }
        } catch let error as LineChannel.Failure {
            throw error
        } catch {
            let error = error as? StoreError ?? .unexpected(String(describing: error))
            return (.failed(message: error.description, storeUnusable: error.isStoreUnusable), [])
        }
    }

    /// Why `request` cannot come now, or nil; moves the exchange on when it can.
    private func outOfOrder(_ request: SyncRequest) -> String? {
        let (name, needed, next): (String, Stage, Stage?) =
            switch request {
            case .identity, .cursor, .abandon: ("", .greeted, nil)
            case .open: ("open", .greeted, .opened)
            case .changes: ("changes", .opened, .changesRead)
            case .records: ("records", .greeted, nil)
            case .apply: ("apply", .changesRead, .applied)
            case .commit: ("commit", .applied, .committed)
            }
        guard let next else { return nil }
        guard stage == needed else { return stage < needed ? "'\(name)' came too early" : "'\(name)' came again" }
        stage = next
        return nil
    }

    /// The `count` record lines after an `apply` request, each read (so the next line is a
    /// request again) before any is refused: a line that is no record, or a record that
    /// cannot enter a store, fails the request, and nothing is written.
    private func receiveRecords(_ count: Int) throws -> [SyncRecord] {
        var records: [SyncRecord] = [], refusal: StoreError?
        for _ in 0..<max(count, 0) {
            guard let line = try channel.receiveLine() else { throw LineChannel.Failure.closed }
            guard refusal == nil else { continue }
            if let record = WireCoding.decode(SyncRecord.self, from: line) {
                // What the merge checks of the records it reads, checked of those written here.
                if let problem = record.problem {
                    refusal = .invalidSyncMemo(path: "the client", uuid: record.uuid, reason: problem)
                }
                records.append(record)
            } else {
                refusal = .remote(
                    place: "the client", problem: "sent a memo record this memo cannot read", storeUnusable: false)
            }
        }
        if let refusal { throw refusal }
        return records
    }

    /// The store, opened at the first request that needs it; the error of that opening for
    /// every request after a failed one.
    private func endpoint() throws(StoreError) -> LocalSyncEndpoint {
        if let opened { return try opened.get() }
        let result: Result<LocalSyncEndpoint, StoreError>
        do {
            result = .success(LocalSyncEndpoint(store: try MemoStore.open(location), displayPath: displayPath))
        } catch {
            result = .failure(error)
        }
        opened = result
        return try result.get()
    }
}
