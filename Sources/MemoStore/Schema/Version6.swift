extension Schema {
    /// Sync that survives failures, copies and concurrent tag changes (docs/REFERENCE.md, Sync).
    /// - `sync_received` replaces `sync_peer`: a store now records how far it has each
    ///   peer's changes (up to `seq`, at the point of the peer's history named by
    ///   `checkpoint`), in the transaction that stores them; before, it recorded how far the
    ///   peer had its own, which was wrong whenever the peer's save failed. Every store
    ///   starts again with a full comparison, which moves nothing that is already equal.
    /// - `sync_checkpoint`: the points of this store's history that peers were given; a peer
    ///   naming one this store does not hold saw a history this store does not have (it was
    ///   restored from a backup, or is a copy), so the store takes a new identity.
    /// - `sync_identity.versioned`: whether local changes stamp versions (the store synced
    ///   or imported); `adopted`: whether the memos from before that have their first
    ///   version (done by the first sync, as version 5 did); `file_id`: the device and inode
    ///   of the store file, so a copy of the file is recognised and becomes a store of its own.
    /// - Tags merge apart from text: `memo.tags_version` counts tag changes as `version`
    ///   now counts text changes, and each explicit tag remembers the change that added it
    ///   (`added_by`, `added_seq`), so a sync tells a tag removed on one side from one added
    ///   on the other. The text remembers the change that wrote it (`text_by`, `text_seq`):
    ///   a version that counts that change has seen the text, whatever else it has not seen.
    ///   Tags and texts of memos that were versioned take the memo's last change. A tombstone
    ///   keeps the explicit tags the memo had (`tags`): when a concurrent change keeps the
    ///   memo alive, a tag added before the delete is not lost.
    /// - Memos that a script wrote to a store file took uuids of the deterministic sequence
    ///   (`00000000-0000-4000-8000-…`), which every scripted store shares: they get uuids
    ///   derived from their own uuid, insert date and text (the same memo synced to two
    ///   stores gets the same one in both), in the memo and its history images.
    static let version6 = Migration(
        version: 6,
        sql: """
            CREATE TABLE sync_received(peer_id TEXT PRIMARY KEY, seq INTEGER NOT NULL, checkpoint TEXT NOT NULL) WITHOUT ROWID;
            CREATE TABLE sync_checkpoint(token TEXT PRIMARY KEY, seq INTEGER NOT NULL) WITHOUT ROWID;
            ALTER TABLE sync_identity ADD COLUMN versioned INTEGER NOT NULL DEFAULT 0;
            ALTER TABLE sync_identity ADD COLUMN adopted INTEGER NOT NULL DEFAULT 0;
            ALTER TABLE sync_identity ADD COLUMN file_id TEXT NOT NULL DEFAULT '';
            UPDATE sync_identity SET versioned = EXISTS (SELECT 1 FROM sync_peer), adopted = EXISTS (SELECT 1 FROM sync_peer);
            DROP TABLE sync_peer;
            ALTER TABLE memo ADD COLUMN tags_version TEXT NOT NULL DEFAULT '{}';
            ALTER TABLE memo ADD COLUMN text_by TEXT NOT NULL DEFAULT '';
            ALTER TABLE memo ADD COLUMN text_seq INTEGER NOT NULL DEFAULT 0;
            ALTER TABLE memo_tag ADD COLUMN added_by TEXT NOT NULL DEFAULT '';
            ALTER TABLE memo_tombstone ADD COLUMN tags TEXT NOT NULL DEFAULT '[]';
            ALTER TABLE memo_tag ADD COLUMN added_seq INTEGER NOT NULL DEFAULT 0;
            UPDATE memo SET tags_version = version, text_by = changed_by,
                            text_seq = coalesce(json_extract(version, '$."' || changed_by || '"'), 0)
            WHERE change_seq > 0;
            UPDATE memo_tag SET added_by = (SELECT changed_by FROM memo WHERE memo.id = memo_tag.memo_id),
                                added_seq = (SELECT coalesce(json_extract(version, '$."' || changed_by || '"'), 0)
                                             FROM memo WHERE memo.id = memo_tag.memo_id)
            WHERE inline = 0 AND memo_id IN (SELECT id FROM memo WHERE change_seq > 0);
            """, backfill: rekeyScriptedMemos)

    /// Gives the memos that carry a uuid of the deterministic sequence a uuid of their own.
    private static let scriptedUUIDPrefix = "00000000-0000-4000-8000-"

    @Sendable private static func rekeyScriptedMemos(in database: Database) throws {
        let scripted = try database.prepare("SELECT id, uuid, insert_date, content FROM memo WHERE uuid LIKE ?1 || '%'")
        try scripted.bind([.text(scriptedUUIDPrefix)])
        var renames: [(id: Int64, old: String, new: String)] = []
        while try scripted.step() {
            let old = scripted.string(at: 1)
            let name = "scripted:" + old + "/" + String(scripted.int64(at: 2)) + "/" + scripted.string(at: 3)
            renames.append((scripted.int64(at: 0), old, uuid(named: name)))
        }
        let renameMemo = try database.prepare("UPDATE memo SET uuid = ?2 WHERE id = ?1")
        let renameImages = try database.prepare(
            """
            UPDATE history_memo SET before = json_set(before, '$.uuid', ?3)
            WHERE memo_id = ?1 AND json_extract(before, '$.uuid') = ?2
            """)
        for rename in renames {
            try renameMemo.run([.integer(rename.id), .text(rename.new)])
            try renameImages.run([.integer(rename.id), .text(rename.old), .text(rename.new)])
        }
    }

    /// The uuid version 6 derives from `name`, frozen: the 64-bit FNV-1a hashes of its UTF-8
    /// from two seeds (the standard one, then its halves swapped), big-endian, marked as
    /// RFC 9562 version 8 with the RFC's variant bits. (`StableUUID.make` as it was then.)
    private static func uuid(named name: String) -> String {
        var halves: [UInt64] = [0xCBF2_9CE4_8422_2325, 0x8422_2325_CBF2_9CE4]
        for byte in name.utf8 {
            halves = halves.map { ($0 ^ UInt64(byte)) &* 0x100_0000_01B3 }
        }
        halves[0] = halves[0] & ~0xF000 | 0x8000
        halves[1] = halves[1] & ~(0xC0 << 56) | 0x80 << 56
        let hex = Array(
            halves.map { half in
                let digits = String(half, radix: 16)
                return String(repeating: "0", count: 16 - digits.count) + digits
            }.joined())
        return [0..<8, 8..<12, 12..<16, 16..<20, 20..<32].map { String(hex[$0]) }.joined(separator: "-")
    }
}
