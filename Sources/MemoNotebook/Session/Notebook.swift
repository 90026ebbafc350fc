import MemoStore

/// One session over a store: the Core Data *context* of memo. It owns the store, the clock,
/// the uuid source and the display time zone, and runs commands into `Outcome`s. Every face
/// (one-shot, scripts, REPL, server) goes through it; none of them touches SQL.
package final class Notebook {
    /// The store; an empty stand-in while `newFile` is still to be created. Internal: the
    /// faces change it only through `execute` and read it only through the notebook.
    var store: MemoStore
    /// The store file the session was pointed at that does not exist yet, or nil.
    package internal(set) var newFile: NewStoreFile?
    /// The new store file this session created whose first change is not saved yet (the
    /// running command's, or an open batch's): removed again if it never is.
    var unsavedNewFile: NewStoreFile?
    /// Tells the user of a store file created (one line, on standard error); nil to say nothing.
    package var notices: ((String) -> Void)?
    package let clock: MemoClock
    package let uuids: UUIDSource
    package let displayTime: DisplayTime
    /// Shows how a long import or sync advances, on a terminal; nil elsewhere.
    package var progress: ProgressBar?
    /// Gets the text of `add` or `edit` typed without one; nil where no one can be asked.
    package var missingTextSource: MissingTextSource?
    /// Lets a person pick memos (`pick`, `-i`); nil where no one can be asked.
    package var picker: MemoPicker?
    /// Asks a person a yes-or-no question before a step that needs one (`undo --sync`, a
    /// sync from an encrypted store to a plain one); nil where no one can be asked (scripts,
    /// the server, piped input): `undo --sync` goes ahead, the plaintext sync is refused
    /// unless `--allow-plaintext` was given.
    package var confirmation: ((String) -> Bool)?
    /// The folder of `add --template` and `today` (`TemplateFolder`); nil where the environment
    /// names none.
    package var templates: TemplateFolder?
    /// Whose changes `undo` walks back: this session's, or the store's for a one-shot command.
    package let scope: SessionScope
    /// This session's history entries that can be undone, the last one on top.
    var undoStack: [Int64] = []
    /// Entries this session undid, to redo; a new change empties it.
    var redoStack: [Int64] = []
    /// Commands of the open batch that changed something.
    package internal(set) var unsavedChanges = 0
    /// When the running command began, or nil between commands.
    private var commandStart: Timestamp?

    package init(
        store: MemoStore, clock: MemoClock, uuids: UUIDSource, displayTime: DisplayTime,
        scope: SessionScope = .session, newFile: NewStoreFile? = nil
    ) {
        self.store = store
        self.newFile = newFile
        self.clock = clock
        self.uuids = uuids
        self.displayTime = displayTime
        self.scope = scope
    }

    /// Whether the store is encrypted at rest (`memo encrypt`): its text must reach no file
    /// but the sealed store, so the faces keep no history file, put temporary files in
    /// memory and write no memos' own files.
    package var isStoreSealed: Bool { store.isSealed }

    /// Where the temporary files holding this store's text go: in memory for an encrypted store.
    package var temporaryTextPlace: TemporaryTextPlace { isStoreSealed ? .privateScratch : .temporaryFolder }

    /// Runs `body` with the store's writers waiting at most `milliseconds` for another
    /// process's lock (`MemoStore.waitingAtMost`).
    package func waitingAtMost<Result, Failure: Error>(
        milliseconds: Int32, _ body: () throws(Failure) -> Result
    ) throws(Failure) -> Result {
        try store.waitingAtMost(milliseconds: milliseconds, body)
    }

    /// The time of the change the running command makes, for its history entry: when the
    /// command began (in scripts, the time the deterministic clock then hands to the memo it
    /// adds or edits), read without moving the clock.
    var changeTime: Timestamp {
        commandStart ?? clock.current
    }

    /// Runs one command. Store failures surface as `StoreError`, bad arguments as `CommandError`.
    /// A command that fails gives back the timestamps and uuids it took, so in scripts only
    /// the changes that happen move the deterministic clock and uuids.
    package func execute(_ command: Command) throws -> Outcome {
        try running(command) { try run(command) }
    }

    /// Runs `body` as `command`, tracked for the session's undo; on failure it gives back the
    /// timestamps and uuids it took.
    private func running<T>(_ command: Command, _ body: () throws -> T) throws -> T {
        let clockMark = clock.current, uuidMark = uuids.mark
        commandStart = clockMark
        defer { commandStart = nil }
        do {
            try prepareStore(for: command)
            let result = try tracking(command, body)
            settleCreatedStoreFile(after: command, succeeded: true)
            return result
        } catch {
            settleCreatedStoreFile(after: command, succeeded: false)
            clock.rewind(to: clockMark)
            uuids.rewind(to: uuidMark)
            throw Self.blamingTheClock(error, at: clockMark)
        }
    }

    private func run(_ command: Command) throws -> Outcome {
        switch command {
        case .add(let text, let tags, let date):
            guard let text else { return try addInteractively(tags: tags, date: date) }
            return .added(try add(text, tags: tags, date: date))
        case .list(let arguments):
            if arguments.printsIDs { return .memoIDs(try store.memos(query(for: arguments)), isSearch: false) }
            return .memos(try store.memos(query(for: arguments)), grouping: arguments.grouping)
        case .search(let arguments):
            if arguments.list.printsIDs { return .memoIDs(try store.memos(query(for: arguments)), isSearch: true) }
            return .memos(try store.memos(query(for: arguments)), search: arguments.query)
        case .importFile(let arguments):
            return .imported(try importMemos(arguments))
        case .sync(let arguments):
            return try sync(arguments)
        case .export(let arguments):
            return try export(arguments)
        case .begin:
            return try begin()
        case .save:
            return try save()
        case .rollback:
            return try rollback()
        case .undo:
            return .undone(try undo())
        case .undoSync:
            return try undoSync()
        case .redo:
            return .redone(try redo())
        case .history(let limit):
            return .history(try store.history(limit: limit))
        case .show(let ids):
            return .shown(try store.existingMemos(ids: memoIDs(ids)).map(shown))
        case .edit(let reference, let text, let date?):
            return try move(memoID(reference), to: date, text: text)
        case .edit(let reference, let text, nil):
            let id = try memoID(reference)
            guard let text else { return try editInteractively(id) }
            let current = try store.existingMemo(id: id)
            let read = try store.readableText(of: current)
            if current.content == text || read == text {
                return .unchanged("#\(id) unchanged: the text is the same")
            }
            return .edited(try store.updateContent(id: id, to: text, reading: .asReadHere, at: clock.now()))
        case .update(let id, let content, let tags, let date):
            return .edited(try update(id: id, content: content, tags: tags, date: date))
        case .editIfStill(let id, let text, let base):
            return try edit(id: id, to: text, ifStill: base)
        case .delete(let ids):
            let deleted = try store.delete(ids: memoIDs(ids), at: changeTime)
            return .deleted(deleted.ids, referencedBy: deleted.referrers)
        case .tag(let id, let tags):
            return .retagged(try store.addTags(tags, to: memoID(id), at: changeTime))
        case .untag(let id, let tags):
            return .retagged(try store.removeTags(tags, from: memoID(id), at: changeTime))
        case .tags:
            return .tags(try store.tagCounts())
        case .count(let filter):
            return .count(try store.count(resolve(filter)))
        case .graph(let arguments):
            return .graph(
                try store.graph(resolve(arguments.filter), linkedOnly: arguments.isLinkedOnly),
                format: arguments.format, drawing: arguments.drawing)
        case .links(let arguments):
            let (ids, filter) = (try memoIDs(arguments.ids), try resolve(arguments.filter))
            let choice: MemoStore.TextLinkChoice = arguments.onlyAccidental ? .accidental : .all
            guard arguments.unlinks else {
                return .textLinks(try store.textLinks(of: ids, filter, choice))
            }
            let unlinked = try store.unlink(of: ids, filter, choice, at: changeTime)
            return .unlinked(references: unlinked.references, memos: unlinked.memos)
        case .info:
            return .info(NotebookInfo(store: try store.info(), unsavedChanges: unsavedChanges))
        case .help, .quit, .fixtures:
            return command.outcomeWithoutStore ?? .quit
        case .clock(let date):
            return .clockSet(try setClock(to: date))
        case .fixture(let reference):
            let fixture = try Fixture.resolve(reference)
            return .fixtureLoaded(name: fixture.name, added: try load(fixture))
        case .preload(let fixture):
            return .fixtureLoaded(name: fixture.name, added: try load(fixture))
        case .withdraw(let change):
            return .undone(try withdraw(change))
        case .addFromTemplate(let name, let title, let tags):
            return try addFromTemplate(name, title: title, tags: tags)
        case .today:
            return try today()
        case .pick(let request):
            return try pick(request, then: run)
        case .editMany(let selection):
            return try editMany(selection)
        case .renameTag(let old, let new):
            return try renameTag(old, to: new)
        case .calendar(let arguments):
            return .calendar(try calendar(arguments))
        case .stats(let filter):
            return .statistics(try statistics(filter))
        }
    }

    /// `edit ID TEXT` while the memo is still the version `base`: the check and the edit are
    /// one write transaction, so a change another process saves meanwhile is never
    /// overwritten. Unchanged, with nothing written, when the check fails.
    private func edit(id: Int64, to text: String, ifStill base: MemoFileBase?) throws -> Outcome {
        let edited = try store.recordingChange(.edit, at: changeTime) { () throws -> Memo? in
            guard let current = try store.memo(id: id), base == MemoFileBase(current) else { return nil }
            return try store.updateContent(id: id, to: text, reading: .asReadHere, at: clock.now())
        }
        return edited.map(Outcome.edited)
            ?? .unchanged("#\(id) unchanged: it is no longer the version the text was based on")
    }

    /// A memo as `show` gives it: with its links, its text as a person here reads it, and
    /// its handle.
    func shown(_ memo: Memo) throws(StoreError) -> ShownMemo {
        ShownMemo(
            memo: memo, links: try store.links(of: memo.id), text: try store.readableText(of: memo),
            handle: try store.handle(ofUUID: memo.uuid))
    }

    /// Whether a batch is open: its changes are not saved yet.
    package var hasOpenBatch: Bool {
        store.hasOpenBatch
    }

    /// Adds a memo stamped with this session's clock, or back-dated to `date` (resolved on
    /// that clock), and with a uuid from its source that no memo of the store has yet (a script
    /// replayed on a store that kept its last run's memos).
    func add(_ text: String, tags: [String], date: DateArgument? = nil) throws -> Memo {
        let now = clock.now()
        let insertDate = try date.map { date throws(CommandError) in try backdated(date, now: now) } ?? now
        // The uuid is chosen inside the write transaction: another process adding at the
        // same moment cannot take it in between.
        return try StoreError.wrapping {
            try store.recordingChange(.add, at: changeTime) {
                try store.insert(
                    MemoDraft(uuid: freshUUID(), content: text, insertDate: insertDate, tags: tags), at: now)
            }
        }
    }

    /// The next uuid of this session's source that no memo of the store has yet.
    func freshUUID() throws(StoreError) -> String {
        var uuid = uuids.next()
        while try store.memo(uuid: uuid) != nil { uuid = uuids.next() }
        return uuid
    }

    /// The fetch request for `list` arguments, with dates resolved in the display time zone.
    package func query(for arguments: ListArguments) throws -> MemoQuery {
        MemoQuery(
            filter: try resolve(arguments.filter), order: arguments.order,
            limit: arguments.limit, offset: arguments.offset)
    }

    /// The fetch request for `search` arguments: `list`'s, narrowed by the search, ordered by
    /// relevance when asked.
    package func query(for arguments: SearchArguments) throws -> MemoQuery {
        var query = try query(for: arguments.list)
        query.filter.search = arguments.query
        if arguments.isRanked { query.order = .relevance }
        return query
    }

    /// Resolves typed dates against this session's clock and time zone, and memos named by
    /// a stable form to their ids here.
    package func resolve(_ filter: FilterArguments) throws -> MemoFilter {
        let now = clock.current
        var resolved = MemoFilter(
            tags: filter.tags, linksTo: try filter.linksTo.map(memoID), linkedFrom: try filter.linkedFrom.map(memoID),
            isOrphan: filter.isOrphan)
        if let on = filter.on {
            let days = on.wholeDays(now: now, in: displayTime)
            resolved.since = days.lowerBound
            resolved.before = days.upperBound
        }
        if let since = filter.since { resolved.since = since.start(now: now, in: displayTime) }
        if let until = filter.until { resolved.before = until.end(now: now, in: displayTime) }
        return resolved
    }
}
