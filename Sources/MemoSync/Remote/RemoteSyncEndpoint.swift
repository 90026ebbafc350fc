import MemoStore

/// A store on the other end of a `SyncConnection` (`memo sync --serve` through ssh) as one
/// side of a sync: each call of `SyncEndpoint` is a request line and its reply
/// (`SyncRequest`, `SyncReply`), records one a line after them. Any failure, of the remote
/// store or of the connection, is a `StoreError.remote` that names `displayPath`; the remote
/// rolls back what it did not commit when its input ends.
package final class RemoteSyncEndpoint: SyncEndpoint {
    package let displayPath: String
    private let connection: any SyncConnection
    private var channel: LineChannel { connection.channel }
    private let onProgress: ((SyncTraffic) -> Void)?
    /// The records that crossed so far, each way.
    private var recordsSent = 0, recordsReceived = 0
    /// Set once the connection ended: nothing more is sent.
    private var endedBecause: String?
    /// Whether the store there is encrypted, as its hello says: false for a plain store, for
    /// one the sync would create, and for a memo too old to say (it knows no encrypted stores).
    package private(set) var isStoreSealed = false
    /// Lines a shell may print before memo starts (a login banner on standard output)
    /// that are skipped while waiting for the hello.
    private static let mostLinesBeforeHello = 100

    /// Says hello over `connection` and reads the other side's: a remote that speaks no
    /// version this one speaks is refused before anything else is asked of it.
    package init(
        connection: any SyncConnection, displayPath: String, hello: SyncHello,
        onProgress: ((SyncTraffic) -> Void)? = nil
    ) throws(StoreError) {
        self.connection = connection
        self.displayPath = displayPath
        self.onProgress = onProgress
        try send(SyncHello.Line(hello))
        let theirs = try receiveHello()
        guard hello.agreedVersion(with: theirs) != nil else { throw failure(hello.refusal(of: theirs)) }
        isStoreSealed = theirs.sealed ?? false
    }

    package var traffic: SyncTraffic {
        var traffic = SyncTraffic()
        traffic.recordsSent = recordsSent
        traffic.recordsReceived = recordsReceived
        traffic.bytesSent = channel.bytesWritten
        traffic.bytesReceived = channel.bytesRead
        return traffic
    }

    package func identity() throws(StoreError) -> SyncIdentityCard {
        guard case .identity(let card) = try call(.identity) else { throw unexpectedReply("identity") }
        return card
    }

    package func open(at time: Timestamp, peer: String) throws(StoreError) -> String {
        guard case .opened(let storeID) = try call(.open(time: time.millisecondsSince1970, peer: peer)) else {
            throw unexpectedReply("open")
        }
        return storeID
    }

    package func cursor(of peer: String) throws(StoreError) -> SyncCursor? {
        guard case .cursor(let cursor) = try call(.cursor(peer: peer)) else { throw unexpectedReply("cursor") }
        return cursor
    }

    package func changes(since cursor: SyncCursor?, at time: Timestamp) throws(StoreError) -> SyncChanges {
        guard
            case .changes(let storeID, let reached, let reachedAfterWrites, let seq, let count) = try call(
                .changes(since: cursor, time: time.millisecondsSince1970))
        else { throw unexpectedReply("changes") }
        return SyncChanges(
            storeID: storeID, cursor: reached, cursorAfterWrites: reachedAfterWrites, seq: seq,
            records: try receiveRecords(count))
    }

    package func records(_ uuids: [String]) throws(StoreError) -> [SyncRecord] {
        var records: [SyncRecord] = []
        // A request a line: at most `uuidsPerRequest` uuids, far under a line's limit.
        for start in stride(from: 0, to: uuids.count, by: Self.uuidsPerRequest) {
            let part = Array(uuids[start..<min(start + Self.uuidsPerRequest, uuids.count)])
            guard case .records(let count) = try call(.records(uuids: part)) else { throw unexpectedReply("records") }
            records += try receiveRecords(count)
        }
        return records
    }

    private static let uuidsPerRequest = 100_000

    package func apply(
        _ records: [SyncRecord], received cursor: SyncCursor, from peer: String, clock: Int64
    ) throws(StoreError) {
        try send(SyncRequest.apply(count: records.count, received: cursor, from: peer, clock: clock))
        for record in records {
            try send(record)
            recordsSent += 1
            onProgress?(traffic)
        }
        guard case .done = try receiveReply() else { throw unexpectedReply("apply") }
    }

    /// The remote store names its peer itself (`SyncService.peerName`): the exchange carries no path.
    package func commit(peer: String) throws(StoreError) {
        guard case .done = try call(.commit) else { throw unexpectedReply("commit") }
    }

    package func abandon() {
        guard endedBecause == nil else { return }
        _ = try? call(.abandon)
    }

    /// Ends the connection after the exchange (the remote ends its session at the end of its input).
    package func close() {
        guard endedBecause == nil else { return }
        endedBecause = "closed"
        connection.close()
    }

    private func call(_ request: SyncRequest) throws(StoreError) -> SyncReply {
        try send(request)
        return try receiveReply()
    }

    private func receiveReply() throws(StoreError) -> SyncReply {
        let line = try receiveLine()
        guard let reply = WireCoding.decode(SyncReply.self, from: line) else {
            throw failure("the remote memo sent a reply this memo cannot read: \(Self.quoted(line))")
        }
        if case .failed(let message, let storeUnusable) = reply { throw failure(message, storeUnusable: storeUnusable) }
        return reply
    }

    private func receiveRecords(_ count: Int) throws(StoreError) -> [SyncRecord] {
        var records: [SyncRecord] = []
        records.reserveCapacity(min(count, 1 << 16))
        for _ in 0..<max(count, 0) {
            let line = try receiveLine()
            guard let record = WireCoding.decode(SyncRecord.self, from: line) else {
                throw failure("the remote memo sent a memo record this memo cannot read: \(Self.quoted(line))")
            }
            records.append(record)
            recordsReceived += 1
            onProgress?(traffic)
        }
        return records
    }

    private func receiveHello() throws(StoreError) -> SyncHello {
        var skipped: [String] = []
        while skipped.count < Self.mostLinesBeforeHello {
            let line: ArraySlice<UInt8>?
            do {
                line = try channel.receiveLine(maximumBytes: LineChannel.maximumHelloBytes)
            } catch {
                throw lost(error, heardFromMemo: false)
            }
            guard let line else { throw ended(heardFromMemo: false, printed: skipped) }
            if let hello = WireCoding.decode(SyncHello.Line.self, from: line) { return hello.hello }
            skipped.append(Self.quoted(line))
        }
        throw failure(
            "the remote printed \(skipped[0]) and more, not the sync exchange: does `memo` there run memo, "
                + "and does the shell's start-up print nothing for a command run through ssh?")
    }

    private func receiveLine() throws(StoreError) -> ArraySlice<UInt8> {
        let line: ArraySlice<UInt8>?
        do {
            line = try channel.receiveLine()
        } catch {
            throw lost(error, heardFromMemo: true)
        }
        guard let line else { throw ended(heardFromMemo: true, printed: []) }
        return line
    }

    private func send(_ message: some Encodable) throws(StoreError) {
        do {
            try channel.send(WireCoding.encode(message))
        } catch {
            throw lost(error, heardFromMemo: true)
        }
    }

    private func lost(_ error: LineChannel.Failure, heardFromMemo: Bool) -> StoreError {
        if case .lineTooLong(let limit) = error {
            return failure(
                "the remote sent a line over \(limit >> 10) KiB\(heardFromMemo ? "" : " before its hello"): not the sync exchange"
            )
        }
        return ended(heardFromMemo: heardFromMemo, printed: [])
    }

    /// The connection ended before the exchange did: why, as the connection tells it.
    private func ended(heardFromMemo: Bool, printed: [String]) -> StoreError {
        let reason = endedBecause ?? connection.explainEnd(heardFromMemo: heardFromMemo)
        endedBecause = reason
        let shown = printed.isEmpty ? "" : " (before that it printed \(printed.prefix(3).joined(separator: " ")))"
        return failure(reason + shown)
    }

    private func failure(_ problem: String, storeUnusable: Bool = false) -> StoreError {
        .remote(place: displayPath, problem: problem, storeUnusable: storeUnusable)
    }

    private func unexpectedReply(_ request: String) -> StoreError {
        failure("the remote memo answered '\(request)' with something else: its sync exchange differs from this memo's")
    }

    /// A line as a message quotes it: its first 80 characters.
    private static func quoted(_ line: ArraySlice<UInt8>) -> String {
        let text = String(decoding: line.prefix(80), as: UTF8.self)
        return "'" + text + (line.count > 80 ? "…'" : "'")
    }
}
