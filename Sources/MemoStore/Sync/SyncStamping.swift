/// The sync side of the writer of memo rows (`MemoTable`): it stamps the memos a change
/// staged with the change's sync facts (versions, dots, tombstones), writes what a sync
/// decided, and gives the memos of a store that kept no versions their first one. Its SQL
/// is named, whole statements, each composed once. It writes memo rows only with the right
/// to (`MemoRowWriteToken`), which `MemoTable` gives it (`init(database:)`).
struct SyncStamping {
    /// The rows' own writer and the staging of their images, for a synced memo.
    private let table: MemoTable
    private let images: HistoryImages
    private let token: MemoRowWriteToken
    private var database: Database { table.database }

    init(database: Database, token: MemoRowWriteToken) {
        table = MemoTable(database: database)
        images = HistoryImages(database: database)
        self.token = token
    }

    // MARK: Sync facts (docs/REFERENCE.md, Sync)

    /// Makes memo `record.uuid` what `record` says (live, or a tombstone), as change `seq` of
    /// a sync, staging its before-image so the sync can be undone here.
    func write(_ record: SyncRecord, seq: Int64) throws {
        try database.writingMemoRows(token) {
            let existing = try database.cached("SELECT id FROM memo WHERE uuid = ?1").scalarInt([.text(record.uuid)])
            let facts: [SQLiteValue] = [
                .text(record.version.json), .integer(record.changedAt), .text(record.changedBy), .integer(seq),
                .text(record.tagsVersion.json), .text(record.textBy), .integer(record.textSeq),
                MemoVersion.supportValue(record.support)
            ]
            guard let live = record.live else {
                if let id = existing { _ = try table.delete(id) }
                let tombstone: [SQLiteValue] = [
                    .text(record.uuid), .text(SyncRecord.Tag.json(ofDeleted: record.deletedTags)),
                    record.deletedText?.json.map(SQLiteValue.text) ?? .null
                ]
                try database.cached(Self.tombstoneSQL).run(facts + tombstone)
                return
            }
            let row: [SQLiteValue] = [.text(live.content), .integer(live.insertDate), .integer(live.updateDate)]
            let words = MemoTable.wordCount(of: live.content)
            let id: Int64
            if let existing {
                id = existing
                try images.stageBeforeImage(of: id)
                try database.cached(Self.updateSyncedSQL).run(facts + row + [.integer(id), words])
                try table.reindex(id, content: live.content)
                try database.cached("DELETE FROM memo_link WHERE memo_id = ?1").run([.integer(id)])
                try database.cached("DELETE FROM memo_tag WHERE memo_id = ?1").run([.integer(id)])
            } else {
                try database.cached(Self.insertSyncedSQL).run(facts + row + [.text(record.uuid), words])
                id = database.lastInsertedRowID
                try images.stageNewMemo(id)
                try table.index(id, content: live.content)
            }
            try table.link(id, content: live.content, reading: ReferenceReading(carrying: live.links))
            for tag in live.tags {
                try table.attach([tag.name], to: id, inline: tag.inline, addedBy: tag.addedBy, addedSeq: tag.addedSeq)
            }
            try table.keepTagNames(of: id)
            try database.cached("DELETE FROM memo_tombstone WHERE uuid = ?1").run([.text(record.uuid)])
        }
    }

    private static let tombstoneSQL = """
        INSERT OR REPLACE INTO memo_tombstone(uuid, version, changed_at, changed_by, change_seq, tags, text)
        VALUES (?9, ?1, ?2, ?3, ?4, ?10, ?11)
        """
    private static let updateSyncedSQL = """
        UPDATE memo SET content = ?9, insert_date = ?10, update_date = ?11, version = ?1, changed_at = ?2, changed_by = ?3,
                        change_seq = ?4, tags_version = ?5, text_by = ?6, text_seq = ?7, support = ?8, word_count = ?13
        WHERE id = ?12
        """
    private static let insertSyncedSQL = """
        INSERT INTO memo(uuid, content, insert_date, update_date, version, changed_at, changed_by, change_seq, tags_version,
                         text_by, text_seq, support, word_count)
        VALUES (?12, ?9, ?10, ?11, ?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?13)
        """

    /// Before a store's first sync: the memos changed while it kept no versions take a first
    /// one, the names of their state (`StateDigest`) for their text and explicit tags, as an
    /// import of them would, so a store made by exporting them and importing agrees with this
    /// one, and the names of the states they had before (`pastNames`); they are change number
    /// `stamp.seq` of this store.
    func adoptUnversionedMemos(_ stamp: SyncStamp) throws {
        try database.writingMemoRows(token) {
            try database.cached(Self.adoptTagDotsSQL).run()
            try database.cached(Self.adoptVersionsSQL).run([.text(stamp.store), .integer(stamp.seq)])
            try database.cached(Self.restoredTakeTheirOwnVersionSQL).run([.text(stamp.store), .integer(stamp.seq)])
            try database.cached(Self.keepAdoptedStateNamesSQL).run([.text(stamp.store), .integer(stamp.seq)])
        }
    }

    /// The memos a first sync versioned are not staged by it: their `state_named` is kept here.
    private static let keepAdoptedStateNamesSQL = """
        UPDATE memo SET state_named = \(isOnlyItsStateSQL) WHERE change_seq = ?2 AND changed_by = ?1
        """

    /// Unversioned explicit tags take the name of their memo's explicit tags as their dot.
    private static let adoptTagDotsSQL = """
        UPDATE memo_tag SET added_by = memo_state_name(coalesce(\(explicitTagNames("memo_tag.memo_id")), '')), added_seq = 1
        WHERE added_by = '' AND inline = 0 AND memo_id IN (SELECT id FROM memo WHERE change_seq = 0)
        """
    private static let adoptVersionsSQL = """
        UPDATE memo SET version = json_patch(\(named("version", textName)), \(pastNames(of: imageTextName))),
                        tags_version = json_patch(\(named("tags_version", tagsName)), \(pastNames(of: imageTagsName))),
                        text_by = \(textName), text_seq = 1, support = \(namesSupport),
                        changed_at = coalesce(update_date, insert_date), changed_by = ?1, change_seq = ?2
        WHERE change_seq = 0
        """

    /// A memo whose last change here was an undo or redo (a delete undone, an edit taken back)
    /// holds a state it had before, whose name a store elsewhere may have seen already, and
    /// deleted or replaced (an export of it imported there). Named by its state alone it would
    /// be that old version, and what that store did to it would undo the restore. So a
    /// restoring change takes a version of its own: this store's first change counts in it.
    private static let restoredTakeTheirOwnVersionSQL = """
        UPDATE memo SET version = json_set(version, '$."' || ?1 || '"', ?2), tags_version = json_set(tags_version, '$."' || ?1 || '"', ?2),
                        support = json_set(support, '$."' || ?1 || '"', ?2), text_by = ?1, text_seq = ?2
        WHERE id IN (SELECT hm.memo_id FROM history h JOIN history_memo hm ON hm.seq = h.seq WHERE h.kind IN ('undo', 'redo'))
          AND change_seq = ?2 AND changed_by = ?1
          AND (SELECT h.kind FROM history h WHERE h.seq = (SELECT max(seq) FROM history_memo WHERE memo_id = memo.id)) IN ('undo', 'redo')
        """

    /// The names (SQL, a JSON object of them) of the states the memo had before, as its history
    /// images keep them: a store that kept no versions still knows its memos' past, so a copy
    /// of an earlier state (an export imported elsewhere, a `cp` of the file) is older than
    /// the memo's state now, not concurrent with it.
    private static func pastNames(of name: String) -> String {
        "(SELECT json_group_object(\(name), 1) FROM history_memo h WHERE h.memo_id = memo.id AND h.before IS NOT NULL)"
    }

    private static let imageTextName = """
        memo_state_name(json_extract(h.before, '$.content'), json_extract(h.before, '$.insert_date'), json_extract(h.before, '$.update_date'))
        """
    private static let imageTagsName = """
        memo_state_name(coalesce((SELECT group_concat(json_extract(t.value, '$[0]'), char(31)) FROM json_each(h.before, '$.tags') t
                                  WHERE json_extract(t.value, '$[1]') = 0), ''))
        """

    /// The explicit tag names of memo `id` (SQL), in order, separated as `StateDigest` does.
    /// The inner table has an alias of its own: `id` may name a column of an outer `memo_tag`
    /// (`adoptUnversionedMemos` updates it), which an unaliased inner `memo_tag` would shadow,
    /// naming every memo's tags at once.
    private static func explicitTagNames(_ id: String) -> String {
        """
        (SELECT group_concat(name, char(31)) FROM (SELECT named.name FROM memo_tag AS named
                                                   WHERE named.memo_id = \(id) AND named.inline = 0 ORDER BY named.name))
        """
    }

    /// Stamps the staged memos as changed by a local change: the text's version counts one
    /// more change of `stamp.store` when the text or its dates changed, the tags' version when
    /// the explicit tags did, each based on the version the memo had before the change (a
    /// memo brought back to life takes its tombstone's), so the new one is newer than every
    /// one the memo had; explicit tags the change added take it as their dot. A memo deleted
    /// leaves a tombstone one change newer than both its versions. Memos the change inserted
    /// with its facts (`insert`) are stamped already.
    func stampStaged(_ stamp: SyncStamp) throws {
        let values: [SQLiteValue] = [.text(stamp.store), .integer(stamp.seq), .integer(stamp.clock)]
        try database.writingMemoRows(token) {
            try database.cached(Self.stampSQL).run(values)
            try database.cached(Self.dotSQL).run([.text(stamp.store)])
            try reviveStaged()
            try buryStagedDeletes(values)
        }
    }

    /// A store that never synced keeps no versions, but a memo a change deleted still leaves
    /// its tombstone (so it stays deleted after the first sync), and an undone delete none.
    func buryStagedDeletes(of store: String, at time: Timestamp) throws {
        try database.writingMemoRows(token) {
            try reviveStaged()
            try buryStagedDeletes([.text(store), .integer(0), .integer(time.millisecondsSince1970)])
        }
    }

    /// A store without tombstones (most) skips the look-up: for a change of many memos (an
    /// import) SQLite gathers every staged uuid to look for them.
    private func reviveStaged() throws {
        guard try database.cached(Self.anyTombstoneSQL).scalarInt([]) != nil else { return }
        try database.cached(Self.reviveSQL).run()
    }

    private static let anyTombstoneSQL = "SELECT 1 FROM memo_tombstone LIMIT 1"

    private func buryStagedDeletes(_ values: [SQLiteValue]) throws {
        try database.cached(Self.buryDeletedSQL).run(values)
    }

    /// `?1`'s count in a version vector, as a JSON path.
    private static let ownCount = "'$.\"' || ?1 || '\"'"

    /// `vector` (SQL) with the change `?2` of store `?1`. A store's count in a version is the
    /// number of its latest change the version has seen (`sync_identity.seq`, which only
    /// grows), not a tally per memo: so the text's and the tags' versions of one memo, and a
    /// tombstone that joins both, count in one sequence and can be compared and joined.
    /// (Before version 6, counts were tallies; each is at most the change number it came
    /// with, so the new counts are newer.) A store that keeps no versions numbers no
    /// changes: its tombstones count its one change, 1.
    private static func bumped(_ vector: String) -> String {
        "json_set(\(vector), \(ownCount), max(?2, 1))"
    }

    /// `vector` (SQL) holding the name `name` (SQL) of the memo's new state, as `insert` does.
    private static func named(_ vector: String, _ name: String) -> String {
        "json_set(\(vector), '$.\"' || \(name) || '\"', 1)"
    }

    private static let textName = "memo_state_name(memo.content, memo.insert_date, memo.update_date)"
    private static let tagsName = "memo_state_name(coalesce(\(explicitTagNames("memo.id")), ''))"

    /// The support of a memo named by its state (an import's, a first sync's), keys in order
    /// as `VersionVector.json` writes them.
    private static let namesSupport = """
        (SELECT json_group_object(name, 1) FROM (SELECT \(textName) AS name UNION SELECT \(tagsName) ORDER BY name))
        """

    /// Whether a row of `memo` (SQL) holds only the version an import derives from its state
    /// (`MemoVersion.first`, `.imported(nil)`): its text and tags named, by those names
    /// (`memo_names_its_state`, which hashes each once). The cheap tests come first, so a
    /// memo changed here costs no hashing, and a memo without tags no look at `memo_tag`.
    static let isOnlyItsStateSQL = """
        (memo.text_seq = 1 AND substr(memo.text_by, 1, 1) = '~'
         AND memo_names_its_state(memo.content, memo.insert_date, memo.update_date,
                                  CASE WHEN memo.tag_names <> '' THEN \(explicitTagNames("memo.id")) END,
                                  memo.text_by, memo.version, memo.tags_version, memo.support)
         AND (memo.tag_names = '' OR NOT EXISTS (SELECT 1 FROM memo_tag WHERE memo_id = memo.id AND inline = 0
                         AND (added_seq <> 1 OR json_extract(memo.tags_version, '$."' || added_by || '"') IS NULL))))
        """

    /// Writes what an export reads from the row of every memo the running change staged, as
    /// the change ends: `state_named` (whether its versions are only its state's names,
    /// `isOnlyItsStateSQL`) and `linked` (whether it has links). Every writer of a memo's text,
    /// dates, tags, versions or links stages it first, so the columns follow them all,
    /// whichever part of the writer wrote them (set-based SQL included). A memo the change
    /// inserted with both facts and did not touch again (`export_facts_kept`, an add's or an
    /// import's) is left out: its insert wrote them as they are. Another row is rewritten
    /// only when a fact changed.
    func keepExportFactsOfStaged() throws {
        try database.writingMemoRows(token) { try database.cached(Self.keepStagedExportFactsSQL).run() }
    }

    static let keepStagedExportFactsSQL = """
        UPDATE memo SET state_named = \(isOnlyItsStateSQL), linked = \(hasLinks)
        WHERE id IN (SELECT memo_id FROM temp.pending_change WHERE export_facts_kept = 0)
          AND (linked IS NOT \(hasLinks) OR state_named IS NOT \(isOnlyItsStateSQL))
        """

    private static let hasLinks = "EXISTS (SELECT 1 FROM memo_link WHERE memo_id = memo.id)"

    /// The tombstone of the memo, as SQL on a row of `memo` in `UPDATE … FROM pending_change p`.
    private static let tombstoneVersion = "(SELECT t.version FROM memo_tombstone t WHERE t.uuid = memo.uuid)"

    /// The version of part `name` the memo had before the change: its image's, else its
    /// tombstone's, else its own (an imported memo's origin, or nothing).
    private static func base(_ name: String) -> String {
        "coalesce(json_extract(p.before, '$.\(name)'), \(tombstoneVersion), memo.\(name))"
    }

    /// The tags' version a change counts on. A memo brought back to life by undo or redo
    /// (`restoreImages`) counts on the tags' version of the state it brings back, not on its
    /// tombstone's: a delete removes a memo, not its tags, so bringing it back removes no tag
    /// the delete had seen added elsewhere (a sync merges those tags back in).
    private static let tagsBase = """
        coalesce(json_extract(p.before, '$.tags_version'), CASE WHEN memo.tags_version <> '{}' THEN memo.tags_version END,
                 \(tombstoneVersion), memo.tags_version)
        """

    /// Whether the part changed: a new memo without an origin, one brought back to life, or
    /// a difference from the image.
    private static func changed(_ name: String, comparing difference: String) -> String {
        """
        CASE WHEN p.before IS NULL THEN memo.\(name) = '{}' OR \(tombstoneVersion) IS NOT NULL ELSE \(difference) END
        """
    }

    /// A text's version covers its dates, a move (`MemoTable.move`) being a change of the text,
    /// and what its references name: an unlink (`MemoTable.unlink`) is a change of the text that
    /// a sync carries with its links, whichever side starts it.
    private static let textDiffers = """
        json_extract(p.before, '$.content') IS NOT memo.content OR json_extract(p.before, '$.update_date') IS NOT memo.update_date
        OR json_extract(p.before, '$.insert_date') IS NOT memo.insert_date
        OR json_extract(p.before, '$.links') IS NOT (SELECT json_group_array(json_array(start, length, target_uuid))
                                                     FROM (SELECT start, length, target_uuid FROM memo_link
                                                           WHERE memo_id = memo.id ORDER BY start))
        """

    private static let explicitTagsDiffer = """
        (SELECT group_concat(json_extract(value, '$[0]'), char(31)) FROM json_each(p.before, '$.tags') WHERE json_extract(value, '$[1]') = 0)
        IS NOT (SELECT group_concat(name, char(31)) FROM (SELECT name FROM memo_tag WHERE memo_id = memo.id AND inline = 0 ORDER BY name))
        """

    static let stampSQL = """
        UPDATE memo SET version = CASE WHEN \(changed("version", comparing: textDiffers))
                                       THEN \(named(bumped(base("version")), textName)) ELSE \(base("version")) END,
                        tags_version = CASE WHEN \(changed("tags_version", comparing: explicitTagsDiffer))
                                            THEN \(named(bumped(tagsBase), tagsName)) ELSE \(tagsBase) END,
                        text_by = CASE WHEN \(changed("version", comparing: textDiffers)) THEN ?1
                                       ELSE coalesce(json_extract(p.before, '$.text_by'), memo.text_by) END,
                        text_seq = CASE WHEN \(changed("version", comparing: textDiffers)) THEN ?2
                                        ELSE coalesce(json_extract(p.before, '$.text_seq'), memo.text_seq) END,
                        support = CASE WHEN \(changed("version", comparing: textDiffers)) OR \(changed("tags_version", comparing: explicitTagsDiffer))
                                       THEN json_object(?1, max(?2, 1))
                                       ELSE coalesce(json_extract(p.before, '$.support'), memo.support) END,
                        changed_at = ?3, changed_by = ?1, change_seq = ?2
        FROM temp.pending_change p WHERE memo.id = p.memo_id AND memo.change_seq IS NOT ?2
            AND memo.id IN (SELECT memo_id FROM temp.pending_change)
        """
    /// The statements that finish a change on its staged memos: each must look them up by
    /// id, never read every memo (`MemoStoreTests` checks their query plans).
    static let stagedMemoStatements = [stampSQL, dotSQL, reviveSQL, buryDeletedSQL, keepStagedExportFactsSQL]

    // The `IN` looks the staged memos up by id: with the join alone, SQLite scanned every memo
    // (a change to one memo of a million took 0.2 s).

    /// Explicit tags without a dot were added by this change (when it changed the tags: a
    /// conflict copy's tag has no dot, and keeps none until its tags change).
    static let dotSQL = """
        WITH changed(id, seq) AS (
            SELECT id, json_extract(tags_version, \(ownCount)) FROM memo
            WHERE id IN (SELECT memo_id FROM temp.pending_change) AND json_extract(tags_version, \(ownCount)) IS NOT NULL)
        UPDATE memo_tag SET added_by = ?1, added_seq = changed.seq FROM changed
        WHERE memo_tag.memo_id = changed.id AND added_by = '' AND inline = 0
        """

    /// A memo alive again (an undone delete) has no tombstone.
    static let reviveSQL = """
        DELETE FROM memo_tombstone WHERE uuid IN (SELECT uuid FROM memo WHERE id IN (SELECT memo_id FROM temp.pending_change))
        """

    /// A memo the change deleted leaves a tombstone one change newer than both versions it
    /// had, that also names the state it deleted (`StateDigest`): a copy of that state made by
    /// export and import elsewhere is deleted by it too, a change of it is not. It keeps the
    /// memo's explicit tags and text, for a concurrent change that keeps the memo alive.
    static let buryDeletedSQL = """
        WITH gone(before, seen) AS (
            SELECT p.before, (SELECT json_group_object(key, most) FROM (
                                 SELECT key, max(value) AS most FROM (
                                     SELECT key, value FROM json_each(p.before, '$.version')
                                     UNION ALL SELECT key, value FROM json_each(p.before, '$.tags_version')
                                     UNION ALL SELECT memo_state_name(json_extract(p.before, '$.content'), json_extract(p.before, '$.insert_date'),
                                                                      json_extract(p.before, '$.update_date')), 1
                                     UNION ALL SELECT memo_state_name(coalesce(
                                                   (SELECT group_concat(json_extract(t.value, '$[0]'), char(31)) FROM json_each(p.before, '$.tags') t
                                                    WHERE json_extract(t.value, '$[1]') = 0), '')), 1)
                                 GROUP BY key))
            FROM temp.pending_change p
            WHERE p.before IS NOT NULL AND p.memo_id NOT IN (SELECT id FROM memo))
        INSERT OR REPLACE INTO memo_tombstone(uuid, version, changed_at, changed_by, change_seq, tags, text)
        SELECT json_extract(before, '$.uuid'), \(bumped("seen")), ?3, ?1, ?2,
               (SELECT json_group_array(json_array(json_extract(t.value, '$[0]'), coalesce(json_extract(t.value, '$[2]'), ''),
                                                   coalesce(json_extract(t.value, '$[3]'), 0)))
                FROM json_each(before, '$.tags') t WHERE json_extract(t.value, '$[1]') = 0),
               \(DeletedText.sql(fromImage: "before"))
        FROM gone
        """
}
