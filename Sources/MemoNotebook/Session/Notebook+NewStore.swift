import MemoStore

/// A store file a session was pointed at that does not exist yet. Until a command that may
/// change the store runs, the session works on an empty stand-in and creates nothing.
package struct NewStoreFile: Sendable {
    package var path: String
    /// Whether a command that does not add memos runs on the empty stand-in (the default
    /// store on a first run) rather than being refused (a path someone gave, most often a typo).
    package var readsWithoutFile: Bool
    package var missingFolders: MemoStore.MissingFolders

    package init(path: String, readsWithoutFile: Bool, missingFolders: MemoStore.MissingFolders) {
        self.path = path
        self.readsWithoutFile = readsWithoutFile
        self.missingFolders = missingFolders
    }
}

extension Notebook {
    /// A session on the store at `location`. A store file that is not there yet is created by
    /// the first command that may add memos (`prepareStore`), and kept only once a change is
    /// saved in it (`settleCreatedStoreFile`); until then nothing is. A file someone chose
    /// (`isChosen`, not the default store) is refused, while missing, to commands that only
    /// read, and its missing folders are not created.
    package convenience init(
        location: StoreLocation, isChosen: Bool = true, clock: MemoClock, uuids: UUIDSource,
        displayTime: DisplayTime, scope: SessionScope = .session
    ) throws(StoreError) {
        var newFile: NewStoreFile?
        if case .file(let path) = location, !MemoStore.fileExists(at: path) {
            newFile = NewStoreFile(
                path: path, readsWithoutFile: !isChosen, missingFolders: isChosen ? .refuse : .create)
        }
        let store = if let newFile { try MemoStore.standIn(for: newFile.path) } else { try MemoStore.open(location) }
        self.init(store: store, clock: clock, uuids: uuids, displayTime: displayTime, scope: scope, newFile: newFile)
    }

    /// Makes the store ready for `command`: one that may add memos creates the new store
    /// file; any other that uses a store file someone named that is not there is refused.
    func prepareStore(for command: Command) throws(StoreError) {
        guard let newFile else { return }
        if try useStoreFileIfCreated() { return }
        switch command.storeUse {
        case .mayAdd:
            // A sync creates this store once it reached the other (`Notebook.sync`).
            if case .sync = command { return }
            try createStoreFile()
        case .existing where !newFile.readsWithoutFile: throw .refused(.noStore(path: store.location.displayPath))
        case .existing, .none: break
        }
    }

    /// Whether the session now uses the store file another process created meanwhile, in
    /// place of its stand-in (before a command, and at a server's tick, so watches see it).
    /// Not a change of the store but of the session's connection, opened as a session's
    /// start opens one: so a face may call it outside `execute`.
    @discardableResult
    package func useStoreFileIfCreated() throws(StoreError) -> Bool {
        guard let newFile, MemoStore.fileExists(at: newFile.path) else { return false }
        store = try MemoStore.open(.file(path: newFile.path), missingFolders: newFile.missingFolders)
        self.newFile = nil
        return true
    }

    /// Opens the new store file in place of the stand-in, creating it. The file is kept only
    /// once a change is saved in it (`settleCreatedStoreFile`).
    func createStoreFile() throws(StoreError) {
        guard let newFile else { return }
        store = try MemoStore.open(.file(path: newFile.path), missingFolders: newFile.missingFolders)
        self.newFile = nil
        if store.createdFile != nil { unsavedNewFile = newFile }
    }

    /// Settles a store file this session created and saved nothing in yet, after `command`:
    /// a command that succeeded keeps it and says so; one that failed, or a `rollback`, leaves
    /// no file behind, as it leaves no change. While a batch is open the batch settles it:
    /// kept at `save`, gone at `rollback` or when the batch is discarded (`discardOpenBatch`).
    func settleCreatedStoreFile(after command: Command, succeeded: Bool) {
        guard let created = unsavedNewFile, !store.hasOpenBatch else { return }
        if succeeded && command != .rollback {
            unsavedNewFile = nil
            announceIfCreated(store)
        } else {
            abandonCreatedStoreFile(created)
        }
    }

    /// Goes back to the stand-in for `created`, a store file this session created and saved
    /// nothing in, and removes the file unless someone else uses it meanwhile
    /// (`CreatedStoreFile.removeIfUnused`): then the next command opens it, as one another
    /// process created. Replacing the store closes the connection to the file first.
    func abandonCreatedStoreFile(_ created: NewStoreFile) {
        unsavedNewFile = nil
        guard let file = store.createdFile, let standIn = try? MemoStore.standIn(for: created.path) else { return }
        store = standIn
        newFile = created
        file.removeIfUnused()
    }

    /// Tells the user a store file was created (`memo: created a new store at PATH`).
    func announceIfCreated(_ store: MemoStore) {
        if store.createdFile != nil { notices?("memo: created a new store at \(store.location.displayPath)") }
    }
}
