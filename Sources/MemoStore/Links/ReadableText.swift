import MemoModel

/// A memo's text as a person here reads it (docs/REFERENCE.md, Links): each `#ID` link
/// shown as the id its memo has in this store, so "see #1" written where Alpha was #1 reads
/// "see #2" where Alpha is #2; a link to a memo that is not here (deleted since, or not
/// brought by a sync yet) as that memo's handle, never a number that means another memo
/// here. A `#ID` that named no memo, and every `memo:` reference, read as written. The
/// stored text stays what was written: the link index knows what each reference named.
struct ReadableText {
    let database: Database
    let handles: MemoHandles

    init(database: Database) {
        self.database = database
        handles = MemoHandles(database: database)
    }

    func text(of memo: Memo) throws(StoreError) -> String {
        try text(memo.content, ofMemo: memo.id)
    }

    /// `content`, memo `id`'s text or the start of it (a listing's title): a link that the
    /// start cuts off reads as written.
    func text(_ content: String, ofMemo id: Int64) throws(StoreError) -> String {
        // Only a `#` can be shown otherwise: most texts have none and cost no query.
        guard content.utf8.contains(UInt8(ascii: "#")) else { return content }
        return try StoreError.wrapping {
            let statement = try database.cached(
                """
                SELECT l.start, l.length, l.target_uuid, t.id
                FROM memo_link l LEFT JOIN memo t ON t.uuid = l.target_uuid
                WHERE l.memo_id = ?1 AND l.target_uuid IS NOT NULL ORDER BY l.start
                """)
            try statement.bind([.integer(id)])
            var shown: [(place: Range<Int>, text: String)] = []
            while try statement.step() {
                let start = Int(statement.int64(at: 0))
                let place = start..<start + Int(statement.int64(at: 1))
                let uuid = statement.string(at: 2)
                let localID = statement.isNull(at: 3) ? nil : statement.int64(at: 3)
                shown.append((place, localID.map { "#\($0)" } ?? uuid))
            }
            var bytes = Array(content.utf8)
            for (place, target) in shown.reversed() where Self.isWrittenID(bytes, place) {
                let text = target.hasPrefix("#") ? target : try handles.handle(of: target).description
                bytes.replaceSubrange(place, with: Array(text.utf8))
            }
            return String(decoding: bytes, as: UTF8.self)
        }
    }

    /// Whether the text's bytes at `place` are a `#` and digits: a link's place, which a
    /// stale index could not make land inside a character.
    private static func isWrittenID(_ bytes: [UInt8], _ place: Range<Int>) -> Bool {
        place.count >= 2 && place.upperBound <= bytes.count && bytes[place.lowerBound] == UInt8(ascii: "#")
            && bytes[place.dropFirst()].allSatisfy { (UInt8(ascii: "0")...UInt8(ascii: "9")).contains($0) }
    }
}
