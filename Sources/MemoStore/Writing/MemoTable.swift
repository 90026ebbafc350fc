/// The one writer of memo rows: `memo`, `memo_tag`, `memo_search`, `memo_link`, with two
/// parts of its own, `HistoryImages` (the staging of before-images in `temp.pending_change`,
/// and restoring them) and `SyncStamping` (sync facts and `memo_tombstone`). A memo row's
/// invariants live here and nowhere else: its text is valid, its search row holds
/// `SearchText.indexed` of that text, its `word_count` is `WordCount.words` of that text
/// (`wordCount(of:)`, with every write of the text), its inline tags follow the text while
/// explicit ones stay, its `tag_names` are the names in `memo_tag` (`keepTagNames`, after
/// every write of its tags), and each memo a change touches has its image staged before the
/// change touches it, so the history can undo it.
///
/// Every feature that changes memos (commands, imports, fixtures, undo and redo, sync, the
/// server) calls these methods, inside a change that `ChangeRecorder` records. Migrations
/// alone write these tables with SQL of their own, frozen with them in `Schema`. SQLite holds
/// everyone else to that (`Database.memoRowTables`): only a holder of a `MemoRowWriteToken`,
/// which only this file makes, may write them. The row pieces its parts share (`index`,
/// `attach`, `keepTagNames`, the links) run inside their caller's right; SQLite refuses them
/// anywhere else.
struct MemoTable {
    let database: Database
    private let token = MemoRowWriteToken()

    /// Which memo a handle in a text names.
    private var handles: MemoHandles { MemoHandles(database: database) }

    /// The staging of the images of the memos a change touches.
    private var images: HistoryImages { HistoryImages(database: database) }

    // MARK: Rows

    /// Where a new memo's first version comes from.
    enum Origin {
        /// A change of this store (its `facts`, none while the store keeps no versions).
        case thisStore
        /// An import: the version its source holds, when the file carried one that fits
        /// (`MemoVersion`), else the names of its state (`StateDigest`), so it is the same
        /// version as its source's copy either way.
        case imported(MemoVersion?)

        /// Whether a memo of this origin starts with only the names of its state
        /// (`state_named`): an import that carried no version.
        var startsNamedByItsState: Bool {
            if case .imported(nil) = self { true } else { false }
        }

        /// Whether `insert` writes a memo of this origin's `state_named` as the change leaves
        /// it: a version the change stamps (`SyncStamping.stampStaged`) names no state, and
        /// one an import derives names only its state (`MemoVersion.first`). A carried
        /// version may be only its state's names or not, and its tags may take the change's
        /// dots: the change's end works that out (`SyncStamping.keepExportFactsOfStaged`).
        var knowsItsStateNaming: Bool {
            if case .imported(.some) = self { false } else { true }
        }
    }

    /// Inserts a memo with its search text and tags, stamped with `facts` (the sync facts of
    /// the change, or none while the store keeps no versions); its id. Its versions also hold
    /// the names of its state (`StateDigest`), so a copy of it that an import names so is no
    /// news to a store that saw this change.
    func insert(
        _ draft: MemoDraft, explicitTags: [String], inlineTags: [String], facts: SyncStamp?,
        origin: Origin = .thisStore
    ) throws -> Int64 {
        try Self.checkDates(draft.insertDate, draft.updateDate)
        return try database.writingMemoRows(token) {
            let first = MemoVersion.first(of: draft, explicitTags: explicitTags, facts: facts, origin: origin)
            try database.cached(Self.insertSQL).run([
                .text(draft.uuid), .text(draft.content),
                .integer(draft.insertDate.millisecondsSince1970),
                .integer(draft.updateDate?.millisecondsSince1970), .text(first.text.json), .text(first.tags.json),
                .integer(first.changedAt), .text(first.changedBy), .integer(facts?.seq ?? 0),
                .text(first.textBy), .integer(first.textSeq), MemoVersion.supportValue(first.support),
                .text(Self.tagNames(explicitTags + inlineTags)), Self.wordCount(of: draft.content),
                .integer(origin.startsNamedByItsState ? 1 : 0)
            ])
            let id = database.lastInsertedRowID
            try images.stageNewMemo(id, keptExportFacts: origin.knowsItsStateNaming)
            try index(id, content: draft.content)
            if try link(id, content: draft.content, reading: draft.references) {
                try database.cached(Self.markLinkedSQL).run([.integer(id)])
            }
            for name in explicitTags {
                let dot = first.tagsAddedBy[name] ?? MemoVersion.Dot(by: "", seq: 0)
                try attach([name], to: id, inline: false, addedBy: dot.by, addedSeq: dot.seq)
            }
            try attach(inlineTags, to: id, inline: true)
            return id
        }
    }

    private static let insertSQL = FixedSQL(
        """
        INSERT INTO memo(uuid, content, insert_date, update_date, version, tags_version, changed_at, changed_by, change_seq,
                         text_by, text_seq, support, tag_names, word_count, state_named)
        VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9, ?10, ?11, ?12, ?13, ?14, ?15)
        """)
    private static let markLinkedSQL = FixedSQL("UPDATE memo SET linked = 1 WHERE id = ?1")

    /// Replaces memo `id`'s text and update date; its inline tags follow the new text, and its
    /// links the new text's references, read as `reading` says, each `#ID` it keeps naming
    /// what it named (`KeptReferences`). False when there is no such memo.
    func updateContent(
        of id: Int64, to content: String, updateDate: Timestamp, reading: ReferenceReading = .asWrittenHere
    ) throws -> Bool {
        try Self.checkDates(updateDate)
        return try database.writingMemoRows(token) {
            try images.stageBeforeImage(of: id)
            let kept = try keptReferences(of: id, asRead: reading == .asReadHere)
            try database.cached("UPDATE memo SET content = ?2, update_date = ?3, word_count = ?4 WHERE id = ?1").run([
                .integer(id), .text(content), .integer(updateDate.millisecondsSince1970), Self.wordCount(of: content)
            ])
            guard database.changes == 1 else { return false }
            try reindex(id, content: content)
            try database.cached("DELETE FROM memo_link WHERE memo_id = ?1").run([.integer(id)])
            try link(id, content: content, reading: reading, keeping: kept)
            try database.cached("DELETE FROM memo_tag WHERE memo_id = ?1 AND inline = 1").run([.integer(id)])
            try attach(TagName.inlineTags(in: content), to: id, inline: true)
            try keepTagNames(of: id)
            return true
        }
    }

    /// Moves memo `id` to another insert date, and so to another place in the order, with
    /// `updateDate` as its update date; its text, tags and links stay. False when there is no
    /// such memo.
    func move(_ id: Int64, to insertDate: Timestamp, updateDate: Timestamp) throws -> Bool {
        try Self.checkDates(insertDate, updateDate)
        return try database.writingMemoRows(token) {
            try images.stageBeforeImage(of: id)
            try database.cached("UPDATE memo SET insert_date = ?2, update_date = ?3 WHERE id = ?1").run([
                .integer(id), .integer(insertDate.millisecondsSince1970), .integer(updateDate.millisecondsSince1970)
            ])
            return database.changes == 1
        }
    }

    /// Deletes memo `id` and its search row (its tags go with it); false when there is none.
    func delete(_ id: Int64) throws -> Bool {
        try database.writingMemoRows(token) {
            try images.stageBeforeImage(of: id)
            try database.cached("DELETE FROM memo WHERE id = ?1").run([.integer(id)])
            let deleted = database.changes == 1
            try database.cached("DELETE FROM memo_search WHERE rowid = ?1").run([.integer(id)])
            return deleted
        }
    }

    /// Refuses a memo date outside the years memo keeps, whatever it came from (a script's
    /// clock run past 9999, an imported record, a move): no store could sync it, and no
    /// ISO 8601 reader read it. Thrown inside the change, so nothing of it is written.
    private static func checkDates(_ dates: Timestamp?...) throws(StoreError) {
        if let outside = dates.lazy.compactMap({ $0 }).first(where: { !Timestamp.representable.contains($0) }) {
            throw .refused(.dateOutsideYears(outside))
        }
    }

    // MARK: Tags

    /// Links tag names to memo `id`. An explicit tag wins over the same inline one, so it
    /// survives edits of the text.
    func addTags(_ names: [String], to id: Int64, inline: Bool = false) throws {
        try database.writingMemoRows(token) {
            try images.stageBeforeImage(of: id)
            try attach(names, to: id, inline: inline)
            try keepTagNames(of: id)
        }
    }

    /// Removes one tag from memo `id`; false when the memo does not carry it.
    func removeTag(_ name: String, from id: Int64) throws -> Bool {
        try database.writingMemoRows(token) {
            try images.stageBeforeImage(of: id)
            try database.cached("DELETE FROM memo_tag WHERE memo_id = ?1 AND name = ?2").run([.integer(id), .text(name)]
            )
            guard database.changes == 1 else { return false }
            try keepTagNames(of: id)
            return true
        }
    }

    /// Makes `explicit` and `inline` memo `id`'s whole set of tags.
    func replaceTags(of id: Int64, explicit: [String], inline: [String]) throws {
        try database.writingMemoRows(token) {
            try images.stageBeforeImage(of: id)
            try database.cached("DELETE FROM memo_tag WHERE memo_id = ?1").run([.integer(id)])
            try attach(explicit, to: id, inline: false)
            try attach(inline, to: id, inline: true)
            try keepTagNames(of: id)
        }
    }

    /// `tag_names` of a new memo with these tags: each name once, in SQLite's order of text
    /// (its bytes), as `tagNames(_:)` in SQL writes them.
    private static func tagNames(_ names: [String]) -> String {
        Set(names).sorted { $0.utf8.lexicographicallyPrecedes($1.utf8) }.joined(separator: " ")
    }

    /// The names of a memo's tags (SQL, for memo `id`), as `tag_names` holds them.
    static func tagNamesSQL(of id: String) -> String {
        "coalesce((SELECT group_concat(name, ' ') FROM (SELECT name FROM memo_tag WHERE memo_id = \(id) ORDER BY name)), '')"
    }

    private static let keepTagNamesSQL = "UPDATE memo SET tag_names = \(tagNamesSQL(of: "?1")) WHERE id = ?1"

    /// Writes memo `id`'s `tag_names` from its tags: one row by its id, so no statement of a
    /// change reads every memo.
    func keepTagNames(of id: Int64) throws {
        try database.cached(Self.keepTagNamesSQL).run([.integer(id)])
    }

    /// Explicit tags remember the change that added them (`addedBy`, `addedSeq`): given for
    /// tags that come from elsewhere, else stamped when the change ends (`stampStaged`).
    func attach(_ names: [String], to id: Int64, inline: Bool, addedBy: String = "", addedSeq: Int64 = 0) throws {
        guard !names.isEmpty else { return }
        let link = try database.cached(Self.attachSQL)
        for name in names {
            try link.run([.integer(id), .text(name), .integer(inline ? 1 : 0), .text(addedBy), .integer(addedSeq)])
        }
    }

    private static let attachSQL = FixedSQL(
        """
        INSERT INTO memo_tag(memo_id, name, inline, added_by, added_seq) VALUES (?1, ?2, ?3, ?4, ?5)
        ON CONFLICT(memo_id, name) DO UPDATE SET inline = min(inline, excluded.inline)
        """)

    // MARK: Word counts

    /// `word_count` of a row holding `content`: its words by the live rule.
    static func wordCount(of content: String) -> SQLiteValue {
        var content = content
        return .integer(Int64(content.withUTF8 { WordCount.words(in: $0) }))
    }

    /// Writes memo `id`'s `word_count` from its text, for a writer that put the text back
    /// with SQL of its own (restoring a history image).
    func keepWordCount(of id: Int64, content: String) throws {
        try database.cached("UPDATE memo SET word_count = ?2 WHERE id = ?1").run([
            .integer(id), Self.wordCount(of: content)
        ])
    }

    // MARK: Search rows

    private static let indexSQL = FixedSQL("INSERT INTO memo_search(rowid, text) VALUES (?1, ?2)")

    func index(_ id: Int64, content: String) throws {
        try database.cached(Self.indexSQL)
            .run([.integer(id), .utf8(SearchText.indexedUTF8(content))])
    }

    func reindex(_ id: Int64, content: String) throws {
        try database.cached("UPDATE memo_search SET text = ?2 WHERE rowid = ?1")
            .run([.integer(id), .utf8(SearchText.indexedUTF8(content))])
    }

    // MARK: Links (docs/REFERENCE.md, Links)

    /// Indexes the references memo `id`'s text makes (`TextReferences`), one row each, read as
    /// `reading` says: a `#ID` names the memo with that id here, now (none when there is none;
    /// none at all in a foreign text), a `memo:UUID` that uuid, carried links what they name.
    /// A `#ID` that `kept` holds (the text before an edit had it) keeps what it named there,
    /// none included, so an edit that leaves "Rule #1" in the text does not make it a link.
    /// Whether it wrote a row.
    @discardableResult
    func link(
        _ id: Int64, content: String, reading: ReferenceReading = .asWrittenHere, keeping kept: KeptReferences = .init()
    ) throws -> Bool {
        try database.writingMemoRows(token) {
            let references = TextReferences.all(in: content)
            if case .carried(let links) = reading, Self.links(links, fit: references) {
                try link(id, carried: links)
                return !links.isEmpty
            }
            guard !references.isEmpty else { return false }
            var kept = kept
            let insert = try database.cached(
                """
                INSERT INTO memo_link(memo_id, start, length, target_uuid)
                VALUES (?1, ?2, ?3, coalesce(?4, (SELECT uuid FROM memo WHERE id = ?5)))
                """)
            for found in references {
                let (targetUUID, targetID): (SQLiteValue, SQLiteValue) =
                    switch found.reference {
                    case .id(let target):
                        if let named = kept.take(
                            TextReferences.written(start: Int64(found.start), length: Int64(found.length), in: content))
                        {
                            (named.map(SQLiteValue.text) ?? .null, .null)
                        } else {
                            (.null, reading == .foreign ? .null : .integer(target))
                        }
                    case .uuid(let target): (.text(target), .null)
                    case .handle(let handle):
                        // A memo not here now that the text named before (a deleted one, which
                        // a readable text shows by its handle) stays named.
                        (
                            (try handles.match(handle).uuid ?? kept.uuid(namedBy: handle))
                                .map(SQLiteValue.text) ?? .null, .null
                        )
                    }
                try insert.run([
                    .integer(id), .integer(Int64(found.start)), .integer(Int64(found.length)), targetUUID, targetID
                ])
            }
            return true
        }
    }

    /// Whether carried links are the text's references, one at each, place for place, and a
    /// `memo:UUID` names that uuid, a handle a uuid it starts with or none (only what a
    /// `#ID` names can differ between stores; a handle may name a memo not here yet).
    private static func links(_ carried: [SyncRecord.Link], fit references: [TextReference]) -> Bool {
        carried.count == references.count
            && zip(carried, references).allSatisfy { link, found in
                guard link.start == Int64(found.start), link.length == Int64(found.length) else { return false }
                return switch found.reference {
                case .id: true
                case .uuid(let uuid): link.target == uuid
                case .handle(let handle): link.target.map(handle.names) ?? true
                }
            }
    }

    /// Indexes the links a synced or exported text carries.
    private func link(_ id: Int64, carried links: [SyncRecord.Link]) throws {
        let insert = try database.cached(
            "INSERT OR IGNORE INTO memo_link(memo_id, start, length, target_uuid) VALUES (?1, ?2, ?3, ?4)")
        for link in links {
            try insert.run([
                .integer(id), .integer(link.start), .integer(link.length), link.target.map(SQLiteValue.text) ?? .null
            ])
        }
    }

    /// What memo `id`'s `#ID` references name now, each as written (`asRead`: a link to a
    /// memo here as it reads, by that memo's id here), in the order of the text.
    private func keptReferences(of id: Int64, asRead: Bool) throws -> KeptReferences {
        var kept = KeptReferences()
        guard
            let content = try database.cached("SELECT content FROM memo WHERE id = ?1").firstRow(
                [.integer(id)], { $0.string(at: 0) })
        else { return kept }
        let rows = try database.cached(
            """
            SELECT l.start, l.length, l.target_uuid, t.id
            FROM memo_link l LEFT JOIN memo t ON t.uuid = l.target_uuid
            WHERE l.memo_id = ?1 ORDER BY l.start
            """)
        try rows.bind([.integer(id)])
        while try rows.step() {
            let written = TextReferences.written(start: rows.int64(at: 0), length: rows.int64(at: 1), in: content)
            guard written.hasPrefix("#") else { continue }
            let read = asRead && !rows.isNull(at: 3) ? "#\(rows.int64(at: 3))" : written
            kept.add(read, naming: rows.isNull(at: 2) ? nil : rows.string(at: 2))
        }
        return kept
    }

    /// Makes memo `id`'s `#ID` links that name `old` name `new`: within an import, a record
    /// added under a uuid of its own is what the file's links to its old uuid meant. A
    /// `memo:` reference names what its text says, so it stays.
    func moveLinks(of id: Int64, from old: String, to new: String) throws {
        try database.writingMemoRows(token) {
            try images.stageBeforeImage(of: id)
            try database.cached(
                """
                UPDATE memo_link SET target_uuid = ?3
                WHERE memo_id = ?1 AND target_uuid = ?2
                  AND substr(CAST((SELECT content FROM memo WHERE id = ?1) AS BLOB), start + 1, 1) = CAST('#' AS BLOB)
                """
            ).run([.integer(id), .text(old), .text(new)])
        }
    }

    /// Makes the references of memo `id` that start at `starts` (UTF-8 byte offsets) name no
    /// memo: its text stays as it is, and they read as plain words from now on, through
    /// edits too (`KeptReferences`). How many it unlinked.
    func unlink(_ id: Int64, at starts: [Int64]) throws -> Int {
        try database.writingMemoRows(token) {
            try images.stageBeforeImage(of: id)
            let unlink = try database.cached(
                "UPDATE memo_link SET target_uuid = NULL WHERE memo_id = ?1 AND start = ?2 AND target_uuid IS NOT NULL")
            var count = 0
            for start in starts {
                try unlink.run([.integer(id), .integer(start)])
                count += database.changes
            }
            return count
        }
    }
}

/// What the `#ID` references of a memo's text named before an edit (a memo's uuid, or nil:
/// none), by the reference as written, in the order of the text. The edit's text keeps them
/// for the same references: its first `#2` takes what the first `#2` named, and so on, so a
/// link that a sync brought from a store where the memo has another id still leads to it,
/// and a `#2` that named none still names none. A further `#2` the edit adds takes the memo
/// the others named, when they named one, and is read anew when they named none.
struct KeptReferences {
    private var named: [String: [String?]] = [:]
    private var taken: [String: Int] = [:]

    fileprivate mutating func add(_ written: String, naming uuid: String?) {
        named[written, default: []].append(uuid)
    }

    /// A memo the text named by a `#ID` whose uuid starts with `handle`: a text saved as read
    /// shows a link to a memo not here by its handle.
    fileprivate func uuid(namedBy handle: MemoHandle) -> String? {
        named.values.lazy.flatMap { $0 }.compactMap { $0 }.first(where: handle.names)
    }

    /// What the next reference written `written` names (nil: read it anew; `.some(nil)`: none).
    fileprivate mutating func take(_ written: String) -> String?? {
        guard let targets = named[written] else { return nil }
        let index = taken[written, default: 0]
        taken[written] = index + 1
        if index < targets.count { return .some(targets[index]) }
        return targets.lazy.compactMap { $0 }.first.map { .some($0) }
    }
}

/// The right to write memo rows (`Database.writingMemoRows`). Only this file makes one: the
/// writer (`MemoTable`), its two parts and the migrations hold the only ones there are.
struct MemoRowWriteToken {
    fileprivate init() {}
}

// The writer's parts get their right here, the only place besides the writer that makes one.
extension HistoryImages {
    init(database: Database) {
        self.init(database: database, token: MemoRowWriteToken())
    }
}

extension SyncStamping {
    init(database: Database) {
        self.init(database: database, token: MemoRowWriteToken())
    }
}

extension Migration {
    /// Runs the steps that create or upgrade a store's layout (`body`) in one transaction, with
    /// the right to write memo rows: a migration's SQL and backfills write them by frozen rules
    /// of their own, not through `MemoTable`.
    static func inOneTransaction<T>(on database: Database, _ body: () throws -> T) throws -> T {
        try database.writingMemoRows(MemoRowWriteToken()) { try database.atomically(body) }
    }
}
