/// The memos of one store, as the rest of memo sees them: one connection and the parts
/// that do the store's jobs, each owning its statements. This class only opens the store,
/// builds the parts on its connection and hands each call to the part whose job it is:
///
/// - `StoreOpening`: finding, judging and migrating the file;
/// - `MemoReader`: memos by id or uuid, queries, counts, tags;
/// - `MemoEdits`: a user's changes, checked, then written by `MemoTable`;
/// - `ImportMerging`: memos brought in from elsewhere, by uuid;
/// - `BatchControl`: batches, and changes saved together or not at all;
/// - `HistoryLog`: the history, undo and redo;
/// - `LinkIndex`: links between memos and their graph;
/// - `SyncSide`: this store's side of a sync;
/// - `MemoSummaries`: memos named by the start of their id;
/// - `ActivityReader`: memos counted by hour, for `calendar` and `stats`.
///
/// Every change is given its time by the caller (the session's clock); the store reads no
/// clock. Not `Sendable`, like the connection it owns: one session uses it at a time.
package final class MemoStore {
    package let location: StoreLocation
    /// The file opening created, or nil: the session says so once the command that created
    /// it succeeded, and takes it away again when that command failed.
    package let createdFile: CreatedStoreFile?
    let database: Database
    /// The file of a sealed (encrypted) store, which holds it while it is open; nil otherwise.
    let sealedFile: SealedStoreFile?
    /// The one writer of memo rows, and its parts for the history and for sync.
    let table: MemoTable
    let historyImages: HistoryImages
    let syncStamping: SyncStamping
    /// Records each change in the history, in the change's transaction.
    let recorder: ChangeRecorder
    private let reader: MemoReader
    private let edits: MemoEdits
    private let tagRenaming: TagRenaming
    private let textLinks: TextLinkListing
    private let imports: ImportMerging
    private let batches: BatchControl
    private let historyLog: HistoryLog
    private let linkIndex: LinkIndex
    private var handles: MemoHandles { MemoHandles(database: database) }
    private let syncSide: SyncSide
    private let idSummaries: MemoSummaries
    private let activity: ActivityReader

    private init(_ opened: StoreOpening) {
        location = opened.location
        createdFile = opened.createdFile
        database = opened.database
        table = MemoTable(database: database)
        historyImages = HistoryImages(database: database)
        syncStamping = SyncStamping(database: database)
        sealedFile = opened.sealedFile
        // A sealed store's every save is a new file: it keeps no marks of the file's own.
        let file = opened.sealedFile == nil ? StoreFile(location) : nil
        recorder = ChangeRecorder(
            database: database, historyImages: historyImages, syncStamping: syncStamping, file: file)
        reader = MemoReader(database: database)
        linkIndex = LinkIndex(database: database, reader: reader)
        edits = MemoEdits(reader: reader, links: linkIndex, table: table, recorder: recorder)
        tagRenaming = TagRenaming(database: database, reader: reader, table: table, recorder: recorder)
        textLinks = TextLinkListing(database: database, reader: reader, table: table, recorder: recorder)
        imports = ImportMerging(database: database, reader: reader, table: table, recorder: recorder)
        batches = BatchControl(database: database, recorder: recorder)
        historyLog = HistoryLog(database: database, historyImages: historyImages, recorder: recorder)
        syncSide = SyncSide(
            location: location, copyCheckedFile: file, database: database, syncStamping: syncStamping,
            recorder: recorder)
        idSummaries = MemoSummaries(database: database)
        activity = ActivityReader(database: database)
    }

    /// Runs `body` with a writer waiting at most `milliseconds` for another process's lock,
    /// not the usual ten seconds: for a caller that must answer before its asker gives up.
    /// The connection's own wait comes back afterwards.
    package func waitingAtMost<Result, Failure: Error>(
        milliseconds: Int32, _ body: () throws(Failure) -> Result
    ) throws(Failure) -> Result {
        let usual =
            (try? database.integer("PRAGMA busy_timeout")).map { Int32(clamping: $0) }
            ?? StoreOpening.busyTimeoutMilliseconds
        database.setBusyTimeout(milliseconds: min(milliseconds, usual))
        defer { database.setBusyTimeout(milliseconds: usual) }
        return try body()
    }

    // MARK: Opening (`StoreOpening`)

    /// Opens the store at `location`, creating or migrating it as needed; `createdFile` tells
    /// whether its file is new. A file that is not a memo store is refused unchanged.
    package static func open(
        _ location: StoreLocation, missingFolders: MissingFolders = .refuse
    ) throws(StoreError) -> MemoStore {
        MemoStore(try StoreOpening.open(location, missingFolders: missingFolders))
    }

    /// An empty store standing in for the store file at `path` that does not exist yet:
    /// commands that only read see no memos, and nothing is created. It lives in memory
    /// and must never be written: the session opens the file at its first change.
    package static func standIn(for path: String) throws(StoreError) -> MemoStore {
        MemoStore(try StoreOpening.standIn(for: path))
    }

    /// Whether a store file exists at `path` (anything there counts: opening judges it).
    package static func fileExists(at path: String) -> Bool { StoreOpening.fileExists(at: path) }

    /// Facts about the store, for `info`.
    package func info() throws(StoreError) -> StoreInfo {
        try StoreInfo(reading: database, location: location, memoCount: count(), isEncrypted: isSealed)
    }

    // MARK: Reading (`MemoReader`)

    package func memo(id: Int64) throws(StoreError) -> Memo? { try reader.memo(id: id) }
    package func memo(uuid: String) throws(StoreError) -> Memo? { try reader.memo(uuid: uuid) }
    package func existingMemos(ids: [Int64]) throws(StoreError) -> [Memo] { try reader.existingMemos(ids: ids) }
    package func existingMemo(id: Int64) throws(StoreError) -> Memo { try reader.existingMemo(id: id) }
    package func memos(_ query: MemoQuery) throws(StoreError) -> MemoCursor { try reader.memos(query) }
    package func count(_ filter: MemoFilter = MemoFilter()) throws(StoreError) -> Int { try reader.count(filter) }
    package func tagCounts() throws(StoreError) -> [TagCount] { try reader.tagCounts() }

    package func forEachText(_ body: (_ id: Int64, _ text: UnsafeRawBufferPointer) -> Void) throws(StoreError) {
        try reader.forEachText(body)
    }

    /// Differs whenever the memos may have changed since it was last read: cheap to poll.
    package func changeStamp() throws(StoreError) -> [Int64] { try reader.changeStamp() }

    package func summaries(idPrefix: String, limit: Int) throws(StoreError) -> [Summary] {
        try idSummaries.summaries(idPrefix: idPrefix, limit: limit)
    }

    package func textOrderBounds(idPrefix: String) throws(StoreError) -> (first: Summary, last: Summary)? {
        try idSummaries.textOrderBounds(idPrefix: idPrefix)
    }

    // MARK: Activity (`ActivityReader`)

    package func hourlyActivity(
        _ filter: MemoFilter, offsets: [UTCOffsetChange], countingWords: Bool
    ) throws(StoreError) -> [HourActivity] {
        try activity.hourlyActivity(filter, offsets: offsets, countingWords: countingWords)
    }

    package func insertDateSpan(_ filter: MemoFilter) throws(StoreError) -> ClosedRange<Timestamp>? {
        try activity.insertDateSpan(filter)
    }

    package func mostUsedTags(_ filter: MemoFilter, limit: Int) throws(StoreError) -> [TagCount] {
        try activity.mostUsedTags(filter, limit: limit)
    }

    // MARK: Writing (`MemoEdits`, `ImportMerging`)

    @discardableResult
    package func insert(_ draft: MemoDraft, at time: Timestamp? = nil) throws(StoreError) -> Memo {
        try edits.insert(draft, at: time)
    }

    /// Moves a memo to `insertDate`, with a new text when `content` is given, as one change.
    @discardableResult
    package func move(
        id: Int64, to insertDate: Timestamp, content: String? = nil, reading: ReferenceReading = .asReadHere,
        at date: Timestamp
    ) throws(StoreError) -> Memo {
        try edits.move(id: id, to: insertDate, content: content, reading: reading, at: date)
    }

    @discardableResult
    package func updateContent(
        id: Int64, to content: String, reading: ReferenceReading = .asReadHere, at date: Timestamp
    ) throws(StoreError) -> Memo {
        try edits.updateContent(id: id, to: content, reading: reading, at: date)
    }

    package func delete(ids: [Int64], at time: Timestamp) throws(StoreError) -> (ids: [Int64], referrers: [LinkedMemo])
    {
        try edits.delete(ids: ids, at: time)
    }

    @discardableResult
    package func addTags(_ tags: [String], to id: Int64, at time: Timestamp) throws(StoreError) -> Memo {
        try edits.addTags(tags, to: id, at: time)
    }

    @discardableResult
    package func removeTags(_ tags: [String], from id: Int64, at time: Timestamp) throws(StoreError) -> Memo {
        try edits.removeTags(tags, from: id, at: time)
    }

    @discardableResult
    package func replaceTags(of id: Int64, with tags: [String], at time: Timestamp) throws(StoreError) -> Memo {
        try edits.replaceTags(of: id, with: tags, at: time)
    }

    /// `tag --rename`: how many memos now carry `new` in place of `old`.
    package func renameTag(_ old: String, to new: String, at time: Timestamp) throws(StoreError) -> Int {
        try tagRenaming.rename(old, to: new, at: time)
    }

    /// Brings in a memo from an import (`ImportMerging.merge`). `existing` is the memo with the
    /// draft's uuid as the caller read it in this change (`.some(nil)`: there is none), which
    /// is then not read again; by default it is read.
    @discardableResult
    package func merge(_ draft: MemoDraft, at time: Timestamp, existing: Memo?? = nil) throws(StoreError) -> MergeResult
    {
        try imports.merge(draft, at: time, existing: existing)
    }

    /// An import's links to a record it added under a uuid of its own follow it there
    /// (`ImportMerging.moveCarriedLinks`).
    package func moveCarriedLinks(
        from old: String, to new: String, at time: Timestamp, carriedBy isCarrying: (String) -> Bool
    ) throws(StoreError) {
        try imports.moveCarriedLinks(from: old, to: new, at: time, carriedBy: isCarrying)
    }

    // MARK: Changes (`ChangeRecorder`, `BatchControl`)

    /// Runs `body` as one saved change of `kind` made at `time`, recorded in the history.
    package func recordingChange<T>(
        _ kind: ChangeKind, target: Int64? = nil, at time: Timestamp,
        _ body: () throws -> T
    ) throws -> T {
        try recorder.recordingChange(kind, target: target, at: time, body)
    }

    /// The history entry this connection wrote last.
    package var lastRecordedChange: Int64? { recorder.lastRecordedChange }

    /// Rows this connection inserted, changed or deleted since it opened.
    package var totalChanges: Int64 { database.totalChanges }

    /// True while a transaction is open on this connection: changes not yet written.
    package var hasOpenTransaction: Bool { batches.hasOpenTransaction }

    package func beginBatch(at time: Timestamp) throws(StoreError) { try batches.beginBatch(at: time) }

    @discardableResult
    package func saveBatch() throws(StoreError) -> Int64? { try batches.saveBatch() }

    package func rollbackBatch() throws(StoreError) { try batches.rollbackBatch() }
    package func allOrNothing<T>(_ body: () throws -> T) throws -> T { try batches.allOrNothing(body) }
    package var hasOpenBatch: Bool { batches.hasOpenBatch }

    // MARK: History (`HistoryLog`)

    package func history(limit: Int?) throws(StoreError) -> [HistoryEntry] { try historyLog.history(limit: limit) }
    package func historyEntry(_ sequence: Int64) throws(StoreError) -> HistoryEntry? {
        try historyLog.historyEntry(sequence)
    }

    @discardableResult
    package func undo(_ choice: HistoryChoice, at time: Timestamp) throws(StoreError) -> HistoryEntry {
        try historyLog.undo(choice, at: time)
    }

    @discardableResult
    package func undo(_ sequence: Int64, at time: Timestamp) throws(StoreError) -> HistoryEntry {
        try historyLog.undo(sequence, at: time)
    }

    @discardableResult
    package func redo(_ choice: HistoryChoice, at time: Timestamp) throws(StoreError) -> HistoryEntry {
        try historyLog.redo(choice, at: time)
    }

    package func syncUndoPreview() throws(StoreError) -> SyncUndoPreview? { try historyLog.syncUndoPreview() }

    // MARK: Links (`LinkIndex`)

    package func links(of id: Int64) throws(StoreError) -> Links { try linkIndex.links(of: id) }
    package func linkPlaces(to id: Int64) throws(StoreError) -> [LinkPlace] { try linkIndex.linkPlaces(to: id) }
    package func referrerCount(of id: Int64) throws(StoreError) -> Int { try linkIndex.referrerCount(of: id) }
    package func graph(_ filter: MemoFilter, linkedOnly: Bool = false) throws(StoreError) -> LinkGraph {
        try linkIndex.graph(filter, linkedOnly: linkedOnly)
    }

    // MARK: Handles and readable texts (`MemoHandles`, `ReadableText`)

    package func match(_ handle: MemoHandle) throws(StoreError) -> HandleMatch { try handles.match(handle) }
    package func handle(ofUUID uuid: String) throws(StoreError) -> MemoHandle { try handles.handle(of: uuid) }
    package func memos(uuidStartingWith digits: String, limit: Int) throws(StoreError) -> [(id: Int64, uuid: String)] {
        try handles.memos(uuidStartingWith: digits, limit: limit)
    }
    package func uuids(named handle: MemoHandle, limit: Int) throws(StoreError) -> [String] {
        try handles.uuids(named: handle, limit: limit)
    }
    package func readableText(of memo: Memo) throws(StoreError) -> String {
        try ReadableText(database: database).text(of: memo)
    }

    /// `links`: the references of memos `ids` (none: all) that `filter` selects that `choice` takes.
    package func textLinks(
        of ids: [Int64] = [], _ filter: MemoFilter, _ choice: TextLinkChoice
    ) throws(StoreError) -> [TextLink] {
        try textLinks.links(of: ids, filter, choice)
    }

    /// `links --unlink`: those of them that are `#ID` links made words, as one change.
    package func unlink(
        of ids: [Int64] = [], _ filter: MemoFilter, _ choice: TextLinkChoice, at time: Timestamp
    ) throws(StoreError) -> (references: Int, memos: Int) {
        try textLinks.unlink(of: ids, filter, choice, at: time)
    }

    // MARK: Sync (`SyncSide`)

    package func syncStoreID() throws(StoreError) -> String { try syncSide.syncStoreID() }
    package var fileIdentity: String { syncSide.fileIdentity }
    package func isOwnFile(_ path: String) -> Bool { syncSide.isOwnFile(path) }
    package var isReadOnly: Bool { syncSide.isReadOnly }

    package func beginSync(at time: Timestamp, peer: String) throws(StoreError) -> String {
        try syncSide.beginSync(at: time, peer: peer)
    }

    package func syncCursor(of peer: String) throws(StoreError) -> SyncCursor? { try syncSide.syncCursor(of: peer) }

    package func syncChanges(since cursor: SyncCursor?, at time: Timestamp) throws(StoreError) -> SyncChanges {
        try syncSide.syncChanges(since: cursor, at: time)
    }

    package func syncRecords(uuids: [String]) throws(StoreError) -> [SyncRecord] {
        try syncSide.syncRecords(uuids: uuids)
    }

    package func applySync(
        _ records: [SyncRecord], seq: Int64, received cursor: SyncCursor, from peer: String,
        clock: Int64
    ) throws(StoreError) {
        try syncSide.applySync(records, seq: seq, received: cursor, from: peer, clock: clock)
    }

    package func commitSync(peer: String) throws(StoreError) { try syncSide.commitSync(peer: peer) }
    package func rollbackSync() { syncSide.rollbackSync() }
}
