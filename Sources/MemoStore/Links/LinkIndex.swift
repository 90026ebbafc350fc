/// Links between memos as the link index keeps them (docs/REFERENCE.md, Links, `Schema.version10`):
/// what the store's callers get back.
extension MemoStore {
    /// A memo at one end of a link: enough to name it in a listing.
    package struct LinkedMemo: Equatable, Sendable {
        package var id: Int64
        package var uuid: String
        package var title: String
    }

    /// One reference a memo's text makes, as written, the uuid of the memo it named where
    /// it was written (nil: none), and that memo here (nil: not here, deleted or never).
    package struct OutgoingLink: Equatable, Sendable {
        package var written: String
        package var namedUUID: String?
        package var target: LinkedMemo?
        /// For a named memo that is not here: how to name it without a number that may mean
        /// another memo here.
        package var missing: MissingMemo? = nil
    }

    /// A memo a link names that is not here: its handle and, when the history keeps its last
    /// version, that version's first line.
    package struct MissingMemo: Equatable, Sendable {
        package var handle: MemoHandle
        package var title: String?
    }

    /// What a memo's text references, in the order of the text, and the memos whose texts
    /// reference it, by id.
    package struct Links: Equatable, Sendable {
        package var outgoing: [OutgoingLink] = []
        package var incoming: [LinkedMemo] = []

        package init(outgoing: [OutgoingLink] = [], incoming: [LinkedMemo] = []) {
            self.outgoing = outgoing
            self.incoming = incoming
        }

        /// The references that name a memo (here or deleted since): what `show` lists. One
        /// that names none is words, not a link (`memo links` lists it, as `(none)`).
        package var linked: [OutgoingLink] { outgoing.filter { $0.namedUUID != nil } }

        /// Whether there is no link either way.
        package var isEmpty: Bool { linked.isEmpty && incoming.isEmpty }
    }

    /// Where a memo's text references another: the memo, and the reference's first byte and
    /// length in the text's UTF-8 bytes.
    package struct LinkPlace: Equatable, Sendable {
        package var memoID: Int64
        package var start: Int
        package var length: Int
    }
}

/// Answers questions about links from the link index (`memo_link`, which `MemoTable` keeps
/// as texts change): a memo's links both ways, where a memo is referenced, and the graph of
/// a selection.
struct LinkIndex {
    let database: Database
    let reader: MemoReader
    private var readable: ReadableText { ReadableText(database: database) }
    private var handles: MemoHandles { MemoHandles(database: database) }

    /// A linked memo's id, uuid, and the start of its text (with whether it goes on): a
    /// memo of a megabyte is not read whole to name it.
    static let linkedColumns = "t.id, t.uuid, substr(t.content, 1, \(titleLength)), length(t.content) > \(titleLength)"
    private static let titleLength = 200

    /// The linked memo of the row's `linkedColumns` from `column` on, its title read as a
    /// person here reads its text (`ReadableText`); nil when the row has none.
    static func linkedMemo(
        _ row: Statement, at column: Int32, readable: ReadableText
    ) throws(StoreError) -> MemoStore.LinkedMemo? {
        guard !row.isNull(at: column) else { return nil }
        let id = row.int64(at: column)
        var start = row.string(at: column + 2)
        var title = MemoContent.title(of: start)
        // Only a `#` in the title can read otherwise: most titles cost no query.
        if title.utf8.contains(UInt8(ascii: "#")) {
            start = try readable.text(start, ofMemo: id)
            title = MemoContent.title(of: start)
        }
        if row.int64(at: column + 3) != 0, !title.isEmpty, start.hasSuffix(title) {
            // The text was cut inside its first line, maybe inside a character: drop that one.
            title = String(title.dropLast()) + "…"
        }
        return MemoStore.LinkedMemo(id: id, uuid: row.string(at: column + 1), title: title)
    }

    /// The links of memo `id`, which exists.
    func links(of id: Int64) throws(StoreError) -> MemoStore.Links {
        try StoreError.wrapping {
            var links = MemoStore.Links()
            let content =
                try database.cached("SELECT content FROM memo WHERE id = ?1").firstRow(
                    [.integer(id)], { $0.string(at: 0) }) ?? ""
            let outgoing = try database.cached(
                """
                SELECT l.start, l.length, l.target_uuid, \(Self.linkedColumns)
                FROM memo_link l LEFT JOIN memo t ON t.uuid = l.target_uuid
                WHERE l.memo_id = ?1 ORDER BY l.start
                """)
            try outgoing.bind([.integer(id)])
            while try outgoing.step() {
                var link = MemoStore.OutgoingLink(
                    written: TextReferences.written(
                        start: outgoing.int64(at: 0), length: outgoing.int64(at: 1), in: content),
                    namedUUID: outgoing.isNull(at: 2) ? nil : outgoing.string(at: 2),
                    target: try Self.linkedMemo(outgoing, at: 3, readable: readable))
                if link.target == nil, let uuid = link.namedUUID {
                    link.missing = MemoStore.MissingMemo(
                        handle: try handles.handle(of: uuid), title: try lastTitle(ofUUID: uuid))
                }
                links.outgoing.append(link)
            }
            links.incoming = try referrers(of: [id])
            return links
        }
    }

    /// The memos, other than `ids`, whose texts reference one of memos `ids`, by id.
    func referrers(of ids: [Int64]) throws(StoreError) -> [MemoStore.LinkedMemo] {
        try StoreError.wrapping {
            let statement = try database.cached(
                """
                SELECT DISTINCT \(Self.linkedColumns)
                FROM memo_link l JOIN memo t ON t.id = l.memo_id
                WHERE l.target_uuid IN (SELECT uuid FROM memo WHERE id IN (SELECT value FROM json_each(?1)))
                  AND l.memo_id NOT IN (SELECT value FROM json_each(?1))
                ORDER BY t.id
                """)
            try statement.bind([.text("[" + ids.map(String.init).joined(separator: ",") + "]")])
            var found: [MemoStore.LinkedMemo] = []
            while try statement.step() {
                if let memo = try Self.linkedMemo(statement, at: 0, readable: readable) { found.append(memo) }
            }
            return found
        }
    }

    /// The first line of the memo with `uuid`, one no longer here, as it was when deleted:
    /// what a link to it is named by. From its tombstone (which a sync brings from the
    /// store that deleted it), else from the last version the history keeps; nil when
    /// neither has it (a memo this store never had).
    private func lastTitle(ofUUID uuid: String) throws(StoreError) -> String? {
        try StoreError.wrapping {
            try database.cached(
                """
                SELECT substr(coalesce(
                    (SELECT json_extract(text, '$.content') FROM memo_tombstone WHERE uuid = ?1),
                    (SELECT json_extract(before, '$.content') FROM history_memo
                     WHERE before IS NOT NULL AND json_extract(before, '$.uuid') = ?1 ORDER BY seq DESC LIMIT 1)),
                    1, \(Self.titleLength))
                """
            ).firstRow([.text(uuid)]) { $0.isNull(at: 0) ? nil : MemoContent.title(of: $0.string(at: 0)) } ?? nil
        }
    }

    /// Every place a memo's text (its own included) references memo `id`, by memo and place.
    func linkPlaces(to id: Int64) throws(StoreError) -> [MemoStore.LinkPlace] {
        try StoreError.wrapping {
            let statement = try database.cached(
                """
                SELECT memo_id, start, length FROM memo_link WHERE target_uuid = (SELECT uuid FROM memo WHERE id = ?1)
                ORDER BY memo_id, start
                """)
            try statement.bind([.integer(id)])
            var places: [MemoStore.LinkPlace] = []
            while try statement.step() {
                places.append(
                    MemoStore.LinkPlace(
                        memoID: statement.int64(at: 0), start: Int(statement.int64(at: 1)),
                        length: Int(statement.int64(at: 2))))
            }
            return places
        }
    }

    /// How many memos' texts reference memo `id` (itself left out).
    func referrerCount(of id: Int64) throws(StoreError) -> Int {
        try StoreError.wrapping {
            Int(
                try database.cached(
                    """
                    SELECT count(DISTINCT memo_id) FROM memo_link WHERE target_uuid = (SELECT uuid FROM memo WHERE id = ?1) AND memo_id != ?1
                    """
                ).scalarInt([.integer(id)]) ?? 0)
        }
    }

    /// The graph of the memos `filter` selects and the links between them; a link to a memo
    /// the filter leaves out, or to none, is not in it.
    func graph(_ filter: MemoFilter, linkedOnly: Bool) throws(StoreError) -> LinkGraph {
        _ = try reader.existingMemos(ids: filter.namedMemos)
        return try StoreError.wrapping { try LinkGraph(selecting: filter, linkedOnly: linkedOnly, in: database) }
    }
}
