import MemoStore
import MemoSync

extension Notebook {
    /// `sync PATH|HOST:PATH`: merges both ways with the other store at this command's time.
    /// Not inside a batch (`StoreRefusal.syncInBatch`), nor once this session gave memos the
    /// deterministic uuids of in-memory runs, which a store file must never get (two scripts'
    /// `add` would be one memo): refused before the other store is opened or reached, so
    /// nothing is created there.
    func sync(_ arguments: SyncArguments) throws -> Outcome {
        if store.hasOpenTransaction { throw StoreError.refused(.syncInBatch) }
        if uuids.gaveReproducibleUUIDs { throw StoreError.refused(.syncOfReproducibleUUIDs) }
        switch arguments.target {
        case .file(let path):
            let peerPath = UserPath.expand(path)
            // Before opening: opening creates a missing file, and SQLite its -wal beside it.
            if store.isOwnFile(peerPath) { throw StoreError.refused(.syncWithItself(path: path)) }
            // Read from the file's first bytes: nothing is opened or created before the answer.
            if !MemoStore.isSealedFile(at: peerPath),
                let declined = try mayWritePlaintext(to: path, allowed: arguments.allowsPlaintext)
            {
                return declined
            }
            var createdPeer: CreatedStoreFile?
            do {
                return try sync(withFile: peerPath, displayPath: path, created: &createdPeer)
            } catch {
                // A sync that fails leaves no new store there, as it leaves no change.
                createdPeer?.removeIfUnused()
                throw error
            }
        case .ssh(let address):
            return try sync(
                through: address, remoteMemo: arguments.remoteMemo, allowsPlaintext: arguments.allowsPlaintext)
        }
    }

    /// Whether this sync may go on when the other store, at `path`, is not encrypted (or is
    /// new, and would be created plain): always from a plain store, and with
    /// `--allow-plaintext` (`allowed`). From an encrypted one the memos would be readable in
    /// that file: a person is asked (`confirmation`); where no one can be asked (scripts, the
    /// server, piped input) it is refused. Nil to go on; the outcome of a declined sync.
    private func mayWritePlaintext(to path: String, allowed: Bool) throws -> Outcome? {
        guard store.isSealed, !allowed else { return nil }
        guard let confirmation else { throw StoreError.refused(.plaintextSync(path: path)) }
        return confirmation(Self.plaintextQuestion) ? nil : .unchanged("nothing synced")
    }

    static let plaintextQuestion =
        "the other store is not encrypted: its copy of your memos will be readable by anyone who gets the file; "
        + "go on? [y/N] "

    /// A sync with the store file at `peerPath`, which it creates when missing (`created`
    /// says so): its connection is closed when this returns or throws.
    private func sync(
        withFile peerPath: String, displayPath path: String, created: inout CreatedStoreFile?
    ) throws -> Outcome {
        // A missing folder is refused: a disk that is not mounted, not a folder to make.
        let other = try MemoStore.open(.file(path: peerPath), missingFolders: .refuse)
        created = other.createdFile
        // This store's file, when new, only once the other store can take the sync.
        if other.isReadOnly { throw StoreError.cannotOpen(path: path, reason: Synchronizer.readOnlyReason) }
        let summary = try Synchronizer.sync(
            try here(), with: LocalSyncEndpoint(store: other, displayPath: path), at: changeTime)
        announceIfCreated(other)
        return .synced(summary, path: path)
    }

    /// This side of a sync: the store, created first when its file is new. A sync creates it
    /// only once the other side was reached (`prepareStore` leaves it to the sync), so a sync
    /// that fails to reach it leaves no new empty store here.
    private func here() throws -> LocalSyncEndpoint {
        try createStoreFile()
        return LocalSyncEndpoint(store: store, displayPath: store.location.displayPath)
    }

    /// A sync with `memo sync --serve` on another machine, through ssh (`SSHConnection`),
    /// showing the memos that crossed on a terminal.
    /// The store there tells in its hello whether it is encrypted, before it is opened: a
    /// declined sync ends the connection with the store there untouched (not even created).
    private func sync(through address: SSHAddress, remoteMemo: String?, allowsPlaintext: Bool) throws -> Outcome {
        let connection = try SSHConnection(to: address, remoteMemo: remoteMemo)
        defer { connection.close() }
        let progress = progress
        defer { progress?.finish(interrupted: false) }
        let remote = try RemoteSyncEndpoint(
            connection: connection, displayPath: address.spelled,
            hello: .current(program: "memo \(memoVersion)")
        ) { traffic in
            progress?.update(
                "syncing with \(address.spelled): \(traffic.recordsReceived) memos received, \(traffic.recordsSent) sent"
            )
        }
        if !remote.isStoreSealed,
            let declined = try mayWritePlaintext(to: address.spelled, allowed: allowsPlaintext)
        {
            return declined
        }
        let summary = try Synchronizer.sync(try here(), with: remote, at: changeTime)
        return .synced(summary, path: address.spelled, traffic: remote.traffic)
    }
}
