/// The history's side of the writer of memo rows (`MemoTable`): it stages each memo's image
/// before a change touches it, in the connection's `temp.pending_change`, which
/// `ChangeRecorder` turns into the change's history entry, and puts recorded images back
/// for undo and redo. It writes memo rows only with the right to (`MemoRowWriteToken`),
/// which `MemoTable` gives it (`init(database:)`).
struct HistoryImages {
    let database: Database
    private let token: MemoRowWriteToken

    init(database: Database, token: MemoRowWriteToken) {
        self.database = database
        self.token = token
    }

    /// The rows' own writer, for the search rows, links and tag names of restored memos.
    private var table: MemoTable { MemoTable(database: database) }

    /// The memos history entry `sequence` replaced (`?1`), or with `?2` set only those that
    /// existed before it (an undone sync keeps the memos it added).
    private static let replacedSQL =
        "SELECT memo_id FROM history_memo WHERE seq = ?1 AND (?2 = 0 OR before IS NOT NULL)"
    private static let stageReplacedSQL = """
        INSERT INTO temp.pending_change(memo_id, before)
        SELECT h.memo_id, (SELECT \(imageSQL) FROM memo WHERE memo.id = h.memo_id) FROM history_memo h
        WHERE h.seq = ?1 AND (?2 = 0 OR h.before IS NOT NULL)
        \(keepFirstImage)
        """
    private static let removeReplacedSearchRowsSQL = "DELETE FROM memo_search WHERE rowid IN (\(replacedSQL))"
    private static let removeReplacedMemosSQL = "DELETE FROM memo WHERE id IN (\(replacedSQL))"
    private static let keepRestoredTagNamesSQL = """
        UPDATE memo SET tag_names = \(MemoTable.tagNamesSQL(of: "memo.id"))
        WHERE id IN (SELECT memo_id FROM history_memo WHERE seq = ?1)
        """

    // MARK: Restoring history images

    /// Puts back the memos as history entry `sequence` recorded them before it (`MemoImage`
    /// in `imageSQL`): each memo the entry touched is removed, then the images that are not
    /// NULL come back with the same id, uuid, dates and tags. `keepingAdded` leaves the memos
    /// the entry added (a NULL image) as they are: an undone sync keeps what it brought.
    func restoreImages(of sequence: Int64, keepingAdded: Bool = false) throws {
        try database.writingMemoRows(token) {
            let value: [SQLiteValue] = [.integer(sequence)],
                choice: [SQLiteValue] = [.integer(sequence), .integer(keepingAdded ? 1 : 0)]
            try database.cached(Self.stageReplacedSQL).run(choice)
            try database.cached(Self.removeReplacedSearchRowsSQL).run(choice)
            try database.cached(Self.removeReplacedMemosSQL).run(choice)
            try database.cached(
                """
                INSERT INTO memo(id, uuid, content, insert_date, update_date, tags_version)
                SELECT json_extract(before, '$.id'), json_extract(before, '$.uuid'), json_extract(before, '$.content'),
                       json_extract(before, '$.insert_date'), json_extract(before, '$.update_date'),
                       coalesce(json_extract(before, '$.tags_version'), '{}')
                FROM history_memo WHERE seq = ?1 AND before IS NOT NULL
                """
            ).run(value)
            try database.cached(
                """
                WITH restored(memo_id, tag, now) AS (
                    -- A tag the memo has now keeps the dot it has now (the image's may be of an add
                    -- that was removed since); one put back is added anew by this change.
                    SELECT h.memo_id, t.value, (SELECT c.value FROM temp.pending_change p, json_each(p.before, '$.tags') c
                                                WHERE p.memo_id = h.memo_id AND json_extract(c.value, '$[0]') = json_extract(t.value, '$[0]'))
                    FROM history_memo h, json_each(h.before, '$.tags') t WHERE h.seq = ?1 AND h.before IS NOT NULL)
                INSERT INTO memo_tag(memo_id, name, inline, added_by, added_seq)
                SELECT memo_id, json_extract(tag, '$[0]'), json_extract(tag, '$[1]'),
                       coalesce(json_extract(now, '$[2]'), ''), coalesce(json_extract(now, '$[3]'), 0)
                FROM restored
                """
            ).run(value)
            try database.cached(Self.keepRestoredTagNamesSQL).run(value)
            try database.cached(
                """
                INSERT INTO memo_link(memo_id, start, length, target_uuid)
                SELECT h.memo_id, json_extract(l.value, '$[0]'), json_extract(l.value, '$[1]'), json_extract(l.value, '$[2]')
                FROM history_memo h, json_each(h.before, '$.links') l WHERE h.seq = ?1 AND h.before IS NOT NULL
                """
            ).run(value)
            // An image from before links were kept (schema version 10) has none: its text says them.
            let restored = try database.prepare(
                """
                SELECT m.id, m.content, json_type(h.before, '$.links') IS NULL FROM memo m JOIN history_memo h ON h.memo_id = m.id
                WHERE h.seq = ?1 AND h.before IS NOT NULL
                """)
            try restored.bind(value)
            while try restored.step() {
                let id = restored.int64(at: 0), content = restored.string(at: 1)
                try table.index(id, content: content)
                try table.keepWordCount(of: id, content: content)
                if restored.int64(at: 2) != 0 { try table.link(id, content: content) }
            }
        }
    }

    /// After `restoreImages` of an undone sync: each memo whose text the sync changed keeps the
    /// text it brought (with its dates, a moved insert date too, inline tags and links), as a
    /// memo the sync added stays.
    /// That text may be nowhere else by the next sync (the peer put back from a backup since),
    /// while the text it replaced here had been seen by the change that replaced it.
    func keepBroughtTexts() throws {
        try database.writingMemoRows(token) {
            let replaced = try database.prepare(
                """
                SELECT p.memo_id, json_extract(p.before, '$.content'), json_extract(p.before, '$.update_date'),
                       json_extract(p.before, '$.insert_date')
                FROM temp.pending_change p JOIN memo m ON m.id = p.memo_id
                WHERE p.before IS NOT NULL AND (json_extract(p.before, '$.content') IS NOT m.content
                                                OR json_extract(p.before, '$.update_date') IS NOT m.update_date
                                                OR json_extract(p.before, '$.insert_date') IS NOT m.insert_date)
                """)
            var kept: [(id: Int64, content: String, updateDate: SQLiteValue, insertDate: Int64)] = []
            while try replaced.step() {
                kept.append(
                    (
                        replaced.int64(at: 0), replaced.string(at: 1),
                        replaced.isNull(at: 2) ? .null : .integer(replaced.int64(at: 2)), replaced.int64(at: 3)
                    ))
            }
            for memo in kept {
                let id: [SQLiteValue] = [.integer(memo.id)]
                try database.cached(
                    "UPDATE memo SET content = ?2, update_date = ?3, insert_date = ?4, word_count = ?5 WHERE id = ?1"
                ).run(
                    id + [
                        .text(memo.content), memo.updateDate, .integer(memo.insertDate),
                        MemoTable.wordCount(of: memo.content)
                    ])
                try table.reindex(memo.id, content: memo.content)
                try database.cached("DELETE FROM memo_tag WHERE memo_id = ?1 AND inline = 1").run(id)
                try database.cached(
                    """
                    INSERT OR IGNORE INTO memo_tag(memo_id, name, inline, added_by, added_seq)
                    SELECT p.memo_id, json_extract(t.value, '$[0]'), 1, coalesce(json_extract(t.value, '$[2]'), ''), coalesce(json_extract(t.value, '$[3]'), 0)
                    FROM temp.pending_change p, json_each(p.before, '$.tags') t WHERE p.memo_id = ?1 AND json_extract(t.value, '$[1]') = 1
                    """
                ).run(id)
                try table.keepTagNames(of: memo.id)
                try database.cached("DELETE FROM memo_link WHERE memo_id = ?1").run(id)
                try database.cached(
                    """
                    INSERT INTO memo_link(memo_id, start, length, target_uuid)
                    SELECT p.memo_id, json_extract(l.value, '$[0]'), json_extract(l.value, '$[1]'), json_extract(l.value, '$[2]')
                    FROM temp.pending_change p, json_each(p.before, '$.links') l WHERE p.memo_id = ?1
                    """
                ).run(id)
            }
        }
    }

    /// Makes the running change (an undone sync, after `restoreImages` and `keepBroughtTexts`)
    /// count, for the explicit tags it puts back, on the tags' version and dots the memos had
    /// in entry `sequence`'s images, not on those the sync wrote: it puts back the tag set from
    /// before the sync as if the sync had not been seen, so it is concurrent with the peer's
    /// tag changes, and the next sync merges them (a tag added on either side stays).
    func countOnImagesOf(_ sequence: Int64) throws {
        try database.writingMemoRows(token) {
            try database.cached(Self.imageDotsSQL).run([.integer(sequence)])
            try database.cached(Self.imageTagsVersionSQL).run([.integer(sequence)])
        }
    }

    /// Whether the explicit tags a memo's staged image (`p`) and its image in the entry (`h`) hold differ.
    private static let imageTagsDiffer = """
        ((SELECT group_concat(json_extract(value, '$[0]'), char(31)) FROM json_each(p.before, '$.tags') WHERE json_extract(value, '$[1]') = 0)
         IS NOT (SELECT group_concat(json_extract(value, '$[0]'), char(31)) FROM json_each(h.before, '$.tags') WHERE json_extract(value, '$[1]') = 0))
        """
    /// Tags counted on the image's version keep the image's dots, which that version counts
    /// (`restoreImages` gave a tag the memo still had the dot it has now, which it may not).
    private static let imageDotsSQL = """
        UPDATE memo_tag SET added_by = coalesce(json_extract(t.value, '$[2]'), ''), added_seq = coalesce(json_extract(t.value, '$[3]'), 0)
        FROM history_memo h, temp.pending_change p, json_each(h.before, '$.tags') t
        WHERE h.seq = ?1 AND h.before IS NOT NULL AND p.memo_id = h.memo_id AND p.before IS NOT NULL AND \(imageTagsDiffer)
          AND memo_tag.memo_id = h.memo_id AND memo_tag.name = json_extract(t.value, '$[0]') AND memo_tag.inline = 0
          AND json_extract(t.value, '$[1]') = 0
        """
    private static let imageTagsVersionSQL = """
        UPDATE temp.pending_change AS p
        SET before = json_set(p.before, '$.tags_version', json(coalesce(json_extract(h.before, '$.tags_version'), '{}')))
        FROM history_memo h
        WHERE h.seq = ?1 AND h.memo_id = p.memo_id AND h.before IS NOT NULL AND p.before IS NOT NULL AND \(imageTagsDiffer)
        """

    // MARK: Staging before-images

    /// A memo's state as JSON, computed in SQL from a row of `memo`: what undo restores, and
    /// the versions the change's own versions count on from.
    static let imageSQL = """
        json_object('id', memo.id, 'uuid', memo.uuid, 'content', memo.content, 'insert_date', memo.insert_date,
                    'update_date', memo.update_date, 'version', json(memo.version), 'tags_version', json(memo.tags_version),
                    'support', json(memo.support),
                    'text_by', memo.text_by, 'text_seq', memo.text_seq,
                    'tags', (SELECT json_group_array(json_array(name, inline, added_by, added_seq))
                             FROM (SELECT name, inline, added_by, added_seq FROM memo_tag WHERE memo_id = memo.id ORDER BY name)),
                    'links', (SELECT json_group_array(json_array(start, length, target_uuid))
                              FROM (SELECT start, length, target_uuid FROM memo_link WHERE memo_id = memo.id ORDER BY start)))
        """

    private static let stageSQL = FixedSQL(
        """
        INSERT INTO temp.pending_change(memo_id, before)
        VALUES (?1, (SELECT \(imageSQL) FROM memo WHERE id = ?1))
        \(keepFirstImage)
        """)
    private static let stageNewSQL = FixedSQL(
        """
        INSERT INTO temp.pending_change(memo_id, before, export_facts_kept) VALUES (?1, NULL, ?2)
        \(keepFirstImage)
        """)
    /// A memo staged again keeps its first image, and its export facts are worked out again
    /// when the change ends: a write after the one that kept them may change them.
    private static let keepFirstImage = "ON CONFLICT(memo_id) DO UPDATE SET export_facts_kept = 0"
    private static let unstageUnchangedSQL = """
        DELETE FROM temp.pending_change
        WHERE CASE WHEN before IS NULL THEN memo_id NOT IN (SELECT id FROM memo)
                   ELSE before IS (SELECT \(imageSQL) FROM memo WHERE memo.id = pending_change.memo_id) END
        """

    /// Creates the connection's staging table (temporary tables are private to a
    /// connection), before its first change: a run that only reads never pays for it.
    /// `export_facts_kept` marks a memo whose writer wrote its export facts as the change
    /// leaves them (`stageNewMemo`), so the change's end does not work them out again.
    func createStagingTable() throws {
        try database.execute(
            """
            CREATE TEMP TABLE IF NOT EXISTS pending_change(memo_id INTEGER PRIMARY KEY, before TEXT,
                                                           export_facts_kept INTEGER NOT NULL DEFAULT 0)
            """)
    }

    /// Notes memo `id` as it is now, before the running change touches it; later calls in the
    /// same change keep the first image. A memo that does not exist yet is noted as NULL.
    func stageBeforeImage(of id: Int64) throws {
        try database.writingMemoRows(token) { try database.cached(Self.stageSQL).run([.integer(id)]) }
    }

    /// Notes a memo the running change created: its image before is NULL. `keptExportFacts`:
    /// its writer wrote its `state_named` and `linked` as they are (`MemoTable.insert`); any
    /// later staging of it in the change takes that back.
    func stageNewMemo(_ id: Int64, keptExportFacts: Bool = false) throws {
        try database.writingMemoRows(token) {
            try database.cached(Self.stageNewSQL).run([.integer(id), .integer(keptExportFacts ? 1 : 0)])
        }
    }

    /// Forgets the staged memos the change left as they were: a memo created and deleted
    /// again, or one whose image equals its row.
    func unstageUnchanged() throws {
        try database.writingMemoRows(token) { try database.cached(Self.unstageUnchangedSQL).run() }
    }

    func clearStaging() throws {
        try database.writingMemoRows(token) { try database.cached("DELETE FROM temp.pending_change").run() }
    }
}
