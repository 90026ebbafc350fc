/// The one writer of memo rows: `memo`, `memo_tag`, `memo_search`, `memo_tombstone` and the
/// staging of before-images in `temp.pending_change`. A memo row's invariants live here and
/// nowhere else: its text is valid, its search row holds `SearchText.indexed` of that text,
/// its inline tags follow the text while explicit ones stay, its `tag_names` are the names in
/// `memo_tag` (`keepTagNames`, after every write of its tags), and each memo a change touches
/// has its image staged before the change touches it, so the history can undo it.
///
/// Every feature that changes memos (commands, imports, fixtures, undo and redo, sync, the
/// server) calls these methods, inside a change that `ChangeRecorder` records. Migrations
/// alone write these tables with SQL of their own, frozen with them in `Schema`.
struct MemoTable {
    let database: Database

    // MARK: Rows

    /// Where a new memo's first version comes from.
    enum Origin {
        /// A change of this store (its `facts`, none while the store keeps no versions).
        case thisStore
        /// An import: the version its source holds, when the file carried one that fits
        /// (`MemoVersion`), else the names of its state (`StateDigest`), so it is the same
        /// version as its source's copy either way.
        case imported(MemoVersion?)
    }

    /// Inserts a memo with its search text and tags, stamped with `facts` (the sync facts of
    /// the change, or none while the store keeps no versions); its id. Its versions also hold
    /// the names of its state (`StateDigest`), so a copy of it that an import names so is no
    /// news to a store that saw this change.
    func insert(_ draft: MemoDraft, explicitTags: [String], inlineTags: [String], facts: SyncStamp?,
                origin: Origin = .thisStore) throws -> Int64 {
        let first = Self.firstVersion(of: draft, explicitTags: explicitTags, facts: facts, origin: origin)
        try database.cached("""
            INSERT INTO memo(uuid, content, insert_date, update_date, version, tags_version, changed_at, changed_by, change_seq,
                             text_by, text_seq, support, tag_names)
            VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9, ?10, ?11, ?12, ?13)
            """).run([.text(draft.uuid), .text(draft.content),
                      .integer(draft.insertDate.millisecondsSince1970),
                      .integer(draft.updateDate?.millisecondsSince1970), .text(first.text.json), .text(first.tags.json),
                      .integer(first.changedAt), .text(first.changedBy), .integer(facts?.seq ?? 0),
                      .text(first.textBy), .integer(first.textSeq), Self.supportValue(first.support),
                      .text(Self.tagNames(explicitTags + inlineTags))])
        let id = database.lastInsertedRowID
        try stageNewMemo(id)
        try index(id, content: draft.content)
        try link(id, content: draft.content, carried: draft.links)
        for name in explicitTags {
            let dot = first.tagsAddedBy[name] ?? MemoVersion.Dot(by: "", seq: 0)
            try attach([name], to: id, inline: false, addedBy: dot.by, addedSeq: dot.seq)
        }
        try attach(inlineTags, to: id, inline: true)
        return id
    }

    private static func firstVersion(of draft: MemoDraft, explicitTags: [String], facts: SyncStamp?, origin: Origin) -> MemoVersion {
        let textName = StateDigest.text(content: draft.content, insertDate: draft.insertDate.millisecondsSince1970,
                                        updateDate: draft.updateDate?.millisecondsSince1970)
        let tagsName = StateDigest.tags(explicitTags)
        func version(_ seq: Int64, text: [String: Int64], tags: [String: Int64], textBy: String, tagsBy: String) -> MemoVersion {
            MemoVersion(text: VersionVector(text), tags: VersionVector(tags),
                        support: VersionVector(seq == 0 ? [:] : [textBy: seq].merging([tagsBy: seq]) { first, _ in first }),
                        textBy: textBy, textSeq: seq,
                        tagsAddedBy: Dictionary(explicitTags.map { ($0, MemoVersion.Dot(by: tagsBy, seq: seq)) }) { first, _ in first },
                        changedAt: facts?.clock ?? 0, changedBy: facts?.store ?? "")
        }
        switch origin {
        case .imported(let carried?):
            return carried
        case .imported(nil):
            return version(1, text: [textName: 1], tags: [tagsName: 1], textBy: textName, tagsBy: tagsName)
        case .thisStore:
            guard let facts else { return version(0, text: [:], tags: [:], textBy: "", tagsBy: "") }
            return version(facts.seq, text: [facts.store: facts.seq, textName: 1], tags: [facts.store: facts.seq, tagsName: 1],
                           textBy: facts.store, tagsBy: facts.store)
        }
    }

    /// Replaces memo `id`'s text and update date; its inline tags follow the new text. False
    /// when there is no such memo.
    func updateContent(of id: Int64, to content: String, updateDate: Timestamp, links: [SyncRecord.Link]? = nil) throws -> Bool {
        try stageBeforeImage(of: id)
        let named = try namedMemos(of: id)
        try database.cached("UPDATE memo SET content = ?2, update_date = ?3 WHERE id = ?1")
            .run([.integer(id), .text(content), .integer(updateDate.millisecondsSince1970)])
        guard database.changes == 1 else { return false }
        try reindex(id, content: content)
        try database.cached("DELETE FROM memo_link WHERE memo_id = ?1").run([.integer(id)])
        try link(id, content: content, carried: links, keeping: named)
        try database.cached("DELETE FROM memo_tag WHERE memo_id = ?1 AND inline = 1").run([.integer(id)])
        try attach(TagName.inlineTags(in: content), to: id, inline: true)
        try keepTagNames(of: id)
        return true
    }

    /// A memo's support as its column holds it: NULL for none yet.
    private static func supportValue(_ support: VersionVector) -> SQLiteValue {
        support.counts.isEmpty ? .null : .text(support.json)
    }

    /// A memo's support (SQL on a row of `memo`): its column, or for a memo from before
    /// version 7, all it has seen (`version` and `tags_version` joined), as before.
    static let supportSQL = """
        coalesce(memo.support, (SELECT json_group_object(key, most) FROM (
            SELECT key, max(value) AS most FROM (SELECT key, value FROM json_each(memo.version)
                                                 UNION ALL SELECT key, value FROM json_each(memo.tags_version)) GROUP BY key)))
        """

    /// Deletes memo `id` and its search row (its tags go with it); false when there is none.
    func delete(_ id: Int64) throws -> Bool {
        try stageBeforeImage(of: id)
        try database.cached("DELETE FROM memo WHERE id = ?1").run([.integer(id)])
        let deleted = database.changes == 1
        try database.cached("DELETE FROM memo_search WHERE rowid = ?1").run([.integer(id)])
        return deleted
    }

    // MARK: Tags

    /// Links tag names to memo `id`. An explicit tag wins over the same inline one, so it
    /// survives edits of the text.
    func addTags(_ names: [String], to id: Int64, inline: Bool = false) throws {
        try stageBeforeImage(of: id)
        try attach(names, to: id, inline: inline)
        try keepTagNames(of: id)
    }

    /// Removes one tag from memo `id`; false when the memo does not carry it.
    func removeTag(_ name: String, from id: Int64) throws -> Bool {
        try stageBeforeImage(of: id)
        try database.cached("DELETE FROM memo_tag WHERE memo_id = ?1 AND name = ?2").run([.integer(id), .text(name)])
        guard database.changes == 1 else { return false }
        try keepTagNames(of: id)
        return true
    }

    /// Makes `explicit` and `inline` memo `id`'s whole set of tags.
    func replaceTags(of id: Int64, explicit: [String], inline: [String]) throws {
        try stageBeforeImage(of: id)
        try database.cached("DELETE FROM memo_tag WHERE memo_id = ?1").run([.integer(id)])
        try attach(explicit, to: id, inline: false)
        try attach(inline, to: id, inline: true)
        try keepTagNames(of: id)
    }

    /// `tag_names` of a new memo with these tags: each name once, in SQLite's order of text
    /// (its bytes), as `tagNames(_:)` in SQL writes them.
    private static func tagNames(_ names: [String]) -> String {
        Set(names).sorted { $0.utf8.lexicographicallyPrecedes($1.utf8) }.joined(separator: " ")
    }

    /// The names of a memo's tags (SQL, for memo `id`), as `tag_names` holds them.
    private static func tagNamesSQL(of id: String) -> String {
        "coalesce((SELECT group_concat(name, ' ') FROM (SELECT name FROM memo_tag WHERE memo_id = \(id) ORDER BY name)), '')"
    }

    private static let keepTagNamesSQL = "UPDATE memo SET tag_names = \(tagNamesSQL(of: "?1")) WHERE id = ?1"

    /// Writes memo `id`'s `tag_names` from its tags: one row by its id, so no statement of a
    /// change reads every memo.
    private func keepTagNames(of id: Int64) throws {
        try database.cached(Self.keepTagNamesSQL).run([.integer(id)])
    }

    /// Explicit tags remember the change that added them (`addedBy`, `addedSeq`): given for
    /// tags that come from elsewhere, else stamped when the change ends (`stampStaged`).
    private func attach(_ names: [String], to id: Int64, inline: Bool, addedBy: String = "", addedSeq: Int64 = 0) throws {
        let link = try database.cached("""
            INSERT INTO memo_tag(memo_id, name, inline, added_by, added_seq) VALUES (?1, ?2, ?3, ?4, ?5)
            ON CONFLICT(memo_id, name) DO UPDATE SET inline = min(inline, excluded.inline)
            """)
        for name in names {
            try link.run([.integer(id), .text(name), .integer(inline ? 1 : 0), .text(addedBy), .integer(addedSeq)])
        }
    }

    // MARK: Search rows

    private func index(_ id: Int64, content: String) throws {
        try database.cached("INSERT INTO memo_search(rowid, text) VALUES (?1, ?2)")
            .run([.integer(id), .text(SearchText.indexed(content))])
    }

    private func reindex(_ id: Int64, content: String) throws {
        try database.cached("UPDATE memo_search SET text = ?2 WHERE rowid = ?1")
            .run([.integer(id), .text(SearchText.indexed(content))])
    }

    // MARK: Links (SPEC §4c)

    /// Indexes the references memo `id`'s text makes (`TextReferences`): a `#ID` names the
    /// memo with that id here, now (none when there is none), a `memo:UUID` that uuid.
    func link(_ id: Int64, content: String, keeping named: [String: String] = [:]) throws {
        let references = TextReferences.all(in: content)
        guard !references.isEmpty else { return }
        let insert = try database.cached("""
            INSERT INTO memo_link(memo_id, start, length, target_uuid)
            VALUES (?1, ?2, ?3, coalesce(?4, (SELECT uuid FROM memo WHERE id = ?5)))
            """)
        for found in references {
            let (targetUUID, targetID): (SQLiteValue, SQLiteValue) = switch found.reference {
            case .id(let target): (named["#\(target)"].map(SQLiteValue.text) ?? .null, .integer(target))
            case .uuid(let target): (.text(target), .null)
            }
            try insert.run([.integer(id), .integer(Int64(found.start)), .integer(Int64(found.length)), targetUUID, targetID])
        }
    }

    /// Indexes memo `id`'s references: as `carried` names them (a synced or exported text's
    /// links, as the store that wrote it named them) when they fit the text, else from the
    /// text here.
    private func link(_ id: Int64, content: String, carried: [SyncRecord.Link]?, keeping named: [String: String] = [:]) throws {
        guard let carried, Self.links(carried, fit: TextReferences.all(in: content)) else { return try link(id, content: content, keeping: named) }
        try link(id, carried: carried)
    }

    /// Whether carried links are the text's references, one at each, place for place, and a
    /// `memo:UUID` names that uuid (only what a `#ID` names can differ between stores).
    private static func links(_ carried: [SyncRecord.Link], fit references: [TextReference]) -> Bool {
        carried.count == references.count && zip(carried, references).allSatisfy { link, found in
            guard link.start == Int64(found.start), link.length == Int64(found.length) else { return false }
            if case .uuid(let uuid) = found.reference { return link.target == uuid }
            return true
        }
    }

    /// Indexes the links a synced or exported text carries.
    private func link(_ id: Int64, carried links: [SyncRecord.Link]) throws {
        let insert = try database.cached("INSERT OR IGNORE INTO memo_link(memo_id, start, length, target_uuid) VALUES (?1, ?2, ?3, ?4)")
        for link in links {
            try insert.run([.integer(id), .integer(link.start), .integer(link.length), link.target.map(SQLiteValue.text) ?? .null])
        }
    }

    /// The memos memo `id`'s `#ID` references name, by the reference as written: an edit
    /// keeps them for the same references in the new text, so a link that a sync brought
    /// from a store where the memo has another id still leads to it after an edit here.
    private func namedMemos(of id: Int64) throws -> [String: String] {
        let rows = try database.cached("""
            SELECT CAST(substr(CAST(m.content AS BLOB), l.start + 1, l.length) AS TEXT), l.target_uuid
            FROM memo_link l JOIN memo m ON m.id = l.memo_id WHERE l.memo_id = ?1 AND l.target_uuid IS NOT NULL
            """)
        try rows.bind([.integer(id)])
        var named: [String: String] = [:]
        while try rows.step() { named[rows.string(at: 0)] = rows.string(at: 1) }
        return named
    }

    // MARK: Restoring history images

    /// Puts back the memos as history entry `sequence` recorded them before it (`MemoImage`
    /// in `imageSQL`): each memo the entry touched is removed, then the images that are not
    /// NULL come back with the same id, uuid, dates and tags. `keepingAdded` leaves the memos
    /// the entry added (a NULL image) as they are: an undone sync keeps what it brought.
    func restoreImages(of sequence: Int64, keepingAdded: Bool = false) throws {
        let value: [SQLiteValue] = [.integer(sequence)], choice: [SQLiteValue] = [.integer(sequence), .integer(keepingAdded ? 1 : 0)]
        let replaced = "SELECT memo_id FROM history_memo WHERE seq = ?1 AND (?2 = 0 OR before IS NOT NULL)"
        try database.cached("""
            INSERT OR IGNORE INTO temp.pending_change(memo_id, before)
            SELECT h.memo_id, (SELECT \(Self.imageSQL) FROM memo WHERE memo.id = h.memo_id) FROM history_memo h
            WHERE h.seq = ?1 AND (?2 = 0 OR h.before IS NOT NULL)
            """).run(choice)
        try database.cached("DELETE FROM memo_search WHERE rowid IN (\(replaced))").run(choice)
        try database.cached("DELETE FROM memo WHERE id IN (\(replaced))").run(choice)
        try database.cached("""
            INSERT INTO memo(id, uuid, content, insert_date, update_date, tags_version)
            SELECT json_extract(before, '$.id'), json_extract(before, '$.uuid'), json_extract(before, '$.content'),
                   json_extract(before, '$.insert_date'), json_extract(before, '$.update_date'),
                   coalesce(json_extract(before, '$.tags_version'), '{}')
            FROM history_memo WHERE seq = ?1 AND before IS NOT NULL
            """).run(value)
        try database.cached("""
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
            """).run(value)
        try database.cached("""
            UPDATE memo SET tag_names = \(Self.tagNamesSQL(of: "memo.id"))
            WHERE id IN (SELECT memo_id FROM history_memo WHERE seq = ?1)
            """).run(value)
        try database.cached("""
            INSERT INTO memo_link(memo_id, start, length, target_uuid)
            SELECT h.memo_id, json_extract(l.value, '$[0]'), json_extract(l.value, '$[1]'), json_extract(l.value, '$[2]')
            FROM history_memo h, json_each(h.before, '$.links') l WHERE h.seq = ?1 AND h.before IS NOT NULL
            """).run(value)
        // An image from before links were kept (schema version 10) has none: its text says them.
        let restored = try database.prepare("""
            SELECT m.id, m.content, json_type(h.before, '$.links') IS NULL FROM memo m JOIN history_memo h ON h.memo_id = m.id
            WHERE h.seq = ?1 AND h.before IS NOT NULL
            """)
        try restored.bind(value)
        while try restored.step() {
            let id = restored.int64(at: 0), content = restored.string(at: 1)
            try index(id, content: content)
            if restored.int64(at: 2) != 0 { try link(id, content: content) }
        }
    }

    /// After `restoreImages` of an undone sync: each memo whose text the sync changed keeps the
    /// text it brought (with its dates, inline tags and links), as a memo the sync added stays.
    /// That text may be nowhere else by the next sync (the peer put back from a backup since),
    /// while the text it replaced here had been seen by the change that replaced it.
    func keepBroughtTexts() throws {
        let replaced = try database.prepare("""
            SELECT p.memo_id, json_extract(p.before, '$.content'), json_extract(p.before, '$.update_date')
            FROM temp.pending_change p JOIN memo m ON m.id = p.memo_id
            WHERE p.before IS NOT NULL AND (json_extract(p.before, '$.content') IS NOT m.content
                                            OR json_extract(p.before, '$.update_date') IS NOT m.update_date)
            """)
        var kept: [(id: Int64, content: String, updateDate: SQLiteValue)] = []
        while try replaced.step() {
            kept.append((replaced.int64(at: 0), replaced.string(at: 1), replaced.isNull(at: 2) ? .null : .integer(replaced.int64(at: 2))))
        }
        for memo in kept {
            let id: [SQLiteValue] = [.integer(memo.id)]
            try database.cached("UPDATE memo SET content = ?2, update_date = ?3 WHERE id = ?1").run(id + [.text(memo.content), memo.updateDate])
            try reindex(memo.id, content: memo.content)
            try database.cached("DELETE FROM memo_tag WHERE memo_id = ?1 AND inline = 1").run(id)
            try database.cached("""
                INSERT OR IGNORE INTO memo_tag(memo_id, name, inline, added_by, added_seq)
                SELECT p.memo_id, json_extract(t.value, '$[0]'), 1, coalesce(json_extract(t.value, '$[2]'), ''), coalesce(json_extract(t.value, '$[3]'), 0)
                FROM temp.pending_change p, json_each(p.before, '$.tags') t WHERE p.memo_id = ?1 AND json_extract(t.value, '$[1]') = 1
                """).run(id)
            try keepTagNames(of: memo.id)
            try database.cached("DELETE FROM memo_link WHERE memo_id = ?1").run(id)
            try database.cached("""
                INSERT INTO memo_link(memo_id, start, length, target_uuid)
                SELECT p.memo_id, json_extract(l.value, '$[0]'), json_extract(l.value, '$[1]'), json_extract(l.value, '$[2]')
                FROM temp.pending_change p, json_each(p.before, '$.links') l WHERE p.memo_id = ?1
                """).run(id)
        }
    }

    /// Makes the running change (an undone sync, after `restoreImages` and `keepBroughtTexts`)
    /// count, for the explicit tags it puts back, on the tags' version and dots the memos had
    /// in entry `sequence`'s images, not on those the sync wrote: it puts back the tag set from
    /// before the sync as if the sync had not been seen, so it is concurrent with the peer's
    /// tag changes, and the next sync merges them (a tag added on either side stays).
    func countOnImagesOf(_ sequence: Int64) throws {
        let tagsDiffer = """
            ((SELECT group_concat(json_extract(value, '$[0]'), char(31)) FROM json_each(p.before, '$.tags') WHERE json_extract(value, '$[1]') = 0)
             IS NOT (SELECT group_concat(json_extract(value, '$[0]'), char(31)) FROM json_each(h.before, '$.tags') WHERE json_extract(value, '$[1]') = 0))
            """
        // Tags counted on the image's version keep the image's dots, which that version counts
        // (`restoreImages` gave a tag the memo still had the dot it has now, which it may not).
        try database.cached("""
            UPDATE memo_tag SET added_by = coalesce(json_extract(t.value, '$[2]'), ''), added_seq = coalesce(json_extract(t.value, '$[3]'), 0)
            FROM history_memo h, temp.pending_change p, json_each(h.before, '$.tags') t
            WHERE h.seq = ?1 AND h.before IS NOT NULL AND p.memo_id = h.memo_id AND p.before IS NOT NULL AND \(tagsDiffer)
              AND memo_tag.memo_id = h.memo_id AND memo_tag.name = json_extract(t.value, '$[0]') AND memo_tag.inline = 0
              AND json_extract(t.value, '$[1]') = 0
            """).run([.integer(sequence)])
        try database.cached("""
            UPDATE temp.pending_change AS p
            SET before = json_set(p.before, '$.tags_version', json(coalesce(json_extract(h.before, '$.tags_version'), '{}')))
            FROM history_memo h
            WHERE h.seq = ?1 AND h.memo_id = p.memo_id AND h.before IS NOT NULL AND p.before IS NOT NULL AND \(tagsDiffer)
            """).run([.integer(sequence)])
    }

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

    /// Creates the connection's staging table (temporary tables are private to a
    /// connection), before its first change: a run that only reads never pays for it.
    func createStagingTable() throws {
        try database.execute("CREATE TEMP TABLE IF NOT EXISTS pending_change(memo_id INTEGER PRIMARY KEY, before TEXT)")
    }

    /// Notes memo `id` as it is now, before the running change touches it; later calls in the
    /// same change keep the first image. A memo that does not exist yet is noted as NULL.
    private func stageBeforeImage(of id: Int64) throws {
        try database.cached("""
            INSERT OR IGNORE INTO temp.pending_change(memo_id, before)
            VALUES (?1, (SELECT \(Self.imageSQL) FROM memo WHERE id = ?1))
            """).run([.integer(id)])
    }

    /// Notes a memo the running change created: its image before is NULL.
    private func stageNewMemo(_ id: Int64) throws {
        try database.cached("INSERT OR IGNORE INTO temp.pending_change(memo_id, before) VALUES (?1, NULL)").run([.integer(id)])
    }

    /// Forgets the staged memos the change left as they were: a memo created and deleted
    /// again, or one whose image equals its row.
    func unstageUnchanged() throws {
        try database.cached("""
            DELETE FROM temp.pending_change
            WHERE CASE WHEN before IS NULL THEN memo_id NOT IN (SELECT id FROM memo)
                       ELSE before IS (SELECT \(Self.imageSQL) FROM memo WHERE memo.id = pending_change.memo_id) END
            """).run()
    }

    func clearStaging() throws {
        try database.cached("DELETE FROM temp.pending_change").run()
    }

    // MARK: Sync facts (SPEC §4b)

    /// Makes memo `record.uuid` what `record` says (live, or a tombstone), as change `seq` of
    /// a sync, staging its before-image so the sync can be undone here.
    func write(_ record: SyncRecord, seq: Int64) throws {
        let existing = try database.cached("SELECT id FROM memo WHERE uuid = ?1").scalarInt([.text(record.uuid)])
        let facts: [SQLiteValue] = [.text(record.version.json), .integer(record.changedAt), .text(record.changedBy), .integer(seq),
                                    .text(record.tagsVersion.json), .text(record.textBy), .integer(record.textSeq),
                                    Self.supportValue(record.support)]
        guard let live = record.live else {
            if let id = existing { _ = try delete(id) }
            try database.cached("""
                INSERT OR REPLACE INTO memo_tombstone(uuid, version, changed_at, changed_by, change_seq, tags, text)
                VALUES (?9, ?1, ?2, ?3, ?4, ?10, ?11)
                """).run(facts + [.text(record.uuid), .text(SyncRecord.Tag.json(ofDeleted: record.deletedTags)),
                                  record.deletedText?.json.map(SQLiteValue.text) ?? .null])
            return
        }
        let row: [SQLiteValue] = [.text(live.content), .integer(live.insertDate), .integer(live.updateDate)]
        let id: Int64
        if let existing {
            id = existing
            try stageBeforeImage(of: id)
            try database.cached("""
                UPDATE memo SET content = ?9, insert_date = ?10, update_date = ?11, version = ?1, changed_at = ?2, changed_by = ?3,
                                change_seq = ?4, tags_version = ?5, text_by = ?6, text_seq = ?7, support = ?8 WHERE id = ?12
                """).run(facts + row + [.integer(id)])
            try reindex(id, content: live.content)
            try database.cached("DELETE FROM memo_link WHERE memo_id = ?1").run([.integer(id)])
            try database.cached("DELETE FROM memo_tag WHERE memo_id = ?1").run([.integer(id)])
        } else {
            try database.cached("""
                INSERT INTO memo(uuid, content, insert_date, update_date, version, changed_at, changed_by, change_seq, tags_version,
                                 text_by, text_seq, support)
                VALUES (?12, ?9, ?10, ?11, ?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8)
                """).run(facts + row + [.text(record.uuid)])
            id = database.lastInsertedRowID
            try stageNewMemo(id)
            try index(id, content: live.content)
        }
        try link(id, content: live.content, carried: live.links)
        for tag in live.tags { try attach([tag.name], to: id, inline: tag.inline, addedBy: tag.addedBy, addedSeq: tag.addedSeq) }
        try keepTagNames(of: id)
        try database.cached("DELETE FROM memo_tombstone WHERE uuid = ?1").run([.text(record.uuid)])
    }

    /// Before a store's first sync: the memos changed while it kept no versions take a first
    /// one, the names of their state (`StateDigest`) for their text and explicit tags, as an
    /// import of them would, so a store made by exporting them and importing agrees with this
    /// one, and the names of the states they had before (`pastNames`); they are change number
    /// `stamp.seq` of this store.
    func adoptUnversionedMemos(_ stamp: SyncStamp) throws {
        try database.cached("""
            UPDATE memo_tag SET added_by = memo_state_name(coalesce(\(Self.explicitTagNames("memo_tag.memo_id")), '')), added_seq = 1
            WHERE added_by = '' AND inline = 0 AND memo_id IN (SELECT id FROM memo WHERE change_seq = 0)
            """).run()
        try database.cached("""
            UPDATE memo SET version = json_patch(\(Self.named("version", Self.textName)), \(Self.pastNames(of: Self.imageTextName))),
                            tags_version = json_patch(\(Self.named("tags_version", Self.tagsName)), \(Self.pastNames(of: Self.imageTagsName))),
                            text_by = \(Self.textName), text_seq = 1, support = \(Self.namesSupport),
                            changed_at = coalesce(update_date, insert_date), changed_by = ?1, change_seq = ?2
            WHERE change_seq = 0
            """).run([.text(stamp.store), .integer(stamp.seq)])
        try database.cached(Self.restoredTakeTheirOwnVersionSQL).run([.text(stamp.store), .integer(stamp.seq)])
    }

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
        try database.cached(Self.stampSQL).run(values)
        try database.cached(Self.dotSQL).run([.text(stamp.store)])
        try reviveStaged()
        try buryStagedDeletes(values)
    }

    /// A store that never synced keeps no versions, but a memo a change deleted still leaves
    /// its tombstone (so it stays deleted after the first sync), and an undone delete none.
    func buryStagedDeletes(of store: String, at time: Timestamp) throws {
        try reviveStaged()
        try buryStagedDeletes([.text(store), .integer(0), .integer(time.millisecondsSince1970)])
    }

    private func reviveStaged() throws {
        try database.cached(Self.reviveSQL).run()
    }

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
    /// (`firstVersion`, `.imported(nil)`): its text and tags named, by those names
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

    private static let textDiffers = """
        json_extract(p.before, '$.content') IS NOT memo.content OR json_extract(p.before, '$.update_date') IS NOT memo.update_date
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
    static let stagedMemoStatements = [stampSQL, dotSQL, reviveSQL, buryDeletedSQL]

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
