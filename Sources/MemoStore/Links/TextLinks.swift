extension MemoStore {
    /// One reference a memo's text makes, where it stands, and what it names (`memo links`).
    package struct TextLink: Equatable, Sendable {
        package var memoID: Int64
        /// Its first byte in the text's UTF-8 bytes.
        package var start: Int
        /// As written: `#1`, `memo:…`.
        package var written: String
        /// A few words of its line around it, as written.
        package var context: String
        /// The uuid of the memo it names (nil: none, words and not a link).
        package var namedUUID: String?
        /// That memo here (nil: deleted since, or none).
        package var target: LinkedMemo?
        /// Whether it looks accidental (`AccidentalLinks`).
        package var looksAccidental: Bool
    }

    /// Which of the selected memos' references `links` lists and `links --unlink` unlinks.
    package enum TextLinkChoice: Sendable {
        /// Every reference.
        case all
        /// The links that look accidental (`AccidentalLinks`).
        case accidental
    }
}

/// The rule by which `memo links --check` finds links nobody meant (docs/REFERENCE.md, Links):
/// a bare `#ID` that names a memo, and either its memo's text came from an import (the latest
/// change of the memo that is not a tag, untag, move, unlink, undo or redo is an import: an
/// older memo read every record's `#1` as a link, "TCP/IP Slang Glossary, #1", "#1 SMP"), or the
/// word before it counts things ("Rule #1", "issue #42", "No. #3"). A `memo:UUID` is always
/// meant. The rule only proposes: the list is there to read before `--unlink`.
enum AccidentalLinks {
    /// Words that number what follows them (lower-case, without a trailing `.` or `:`).
    static let countingWords: Set<String> = [
        "rule", "rules", "issue", "issues", "bug", "ticket", "pr", "no", "nr", "num", "number", "item", "step",
        "part", "chapter", "page", "episode", "vol", "volume", "round", "level", "track"
    ]

    static func looksAccidental(written: String, named: Bool, textFromImport: Bool, lineBefore: Substring) -> Bool {
        guard named, written.hasPrefix("#") else { return false }
        return textFromImport || countingWords.contains(wordBefore(lineBefore))
    }

    /// The last word of `text`, lower-cased, without the `.` or `:` that may end it.
    private static func wordBefore(_ text: Substring) -> String {
        let word = text.reversed().drop(while: \.isWhitespace).prefix { !$0.isWhitespace }
        return String(String(word.reversed()).lowercased().trimmingSuffix { $0 == "." || $0 == ":" || $0 == "," })
    }
}

extension String {
    fileprivate func trimmingSuffix(while isTrimmed: (Character) -> Bool) -> Substring {
        var end = endIndex
        while end > startIndex, isTrimmed(self[index(before: end)]) { end = index(before: end) }
        return self[..<end]
    }
}

/// The references of the memos a filter selects, read from the link index with their words
/// around them (`memo links`), and their unlinking, one recorded change (`memo links --unlink`).
struct TextLinkListing {
    let database: Database
    let reader: MemoReader
    /// The one writer of memo rows.
    let table: MemoTable
    let recorder: ChangeRecorder

    /// How much of the line on each side of a reference the listing shows, in characters.
    private static let contextWidth = 24

    /// The references of memos `ids` (none: all) that `filter` selects that `choice` takes, by
    /// memo and place. A memo `ids` or a filter names that does not exist is an error.
    func links(
        of ids: [Int64], _ filter: MemoFilter, _ choice: MemoStore.TextLinkChoice
    ) throws(StoreError) -> [MemoStore.TextLink] {
        _ = try reader.existingMemos(ids: ids + filter.namedMemos)
        return try StoreError.wrapping { try read(ids, filter, choice) }
    }

    /// Unlinks the `#ID` links of the memos `filter` selects that `choice` takes, as one
    /// change at `time`: their texts stay, each reads as words from now on. How many
    /// references, in how many memos.
    func unlink(
        of ids: [Int64], _ filter: MemoFilter, _ choice: MemoStore.TextLinkChoice, at time: Timestamp
    ) throws(StoreError) -> (references: Int, memos: Int) {
        _ = try reader.existingMemos(ids: ids + filter.namedMemos)
        return try recorder.recorded(.unlink, at: time) {
            let links = try read(ids, filter, choice).filter { $0.namedUUID != nil && $0.written.hasPrefix("#") }
            var count = 0, memos = 0
            for (memo, places) in Dictionary(grouping: links, by: \.memoID).sorted(by: { $0.key < $1.key }) {
                let unlinked = try table.unlink(memo, at: places.map { Int64($0.start) })
                count += unlinked
                if unlinked > 0 { memos += 1 }
            }
            return (count, memos)
        }
    }

    private func read(
        _ ids: [Int64], _ filter: MemoFilter, _ choice: MemoStore.TextLinkChoice
    ) throws -> [MemoStore.TextLink] {
        var (whereSQL, values) = filter.whereClause
        if !ids.isEmpty {
            values.append(.text("[" + ids.map(String.init).joined(separator: ",") + "]"))
            let chosen = "memo.id IN (SELECT value FROM json_each(?\(values.count)))"
            whereSQL += whereSQL.isEmpty ? " WHERE \(chosen)" : " AND \(chosen)"
        }
        let statement = try database.prepare(
            "WITH selected(id) AS MATERIALIZED (SELECT memo.id FROM memo\(whereSQL)) "
                + """
                SELECT l.memo_id, l.start, l.length, l.target_uuid, m.content, \(LinkIndex.linkedColumns),
                       (SELECT h.kind FROM history_memo hm JOIN history h ON h.seq = hm.seq
                        WHERE hm.memo_id = m.id AND h.kind NOT IN ('tag', 'untag', 'move', 'unlink', 'undo', 'redo')
                        ORDER BY hm.seq DESC LIMIT 1) = 'import'
                FROM memo_link l JOIN memo m ON m.id = l.memo_id LEFT JOIN memo t ON t.uuid = l.target_uuid
                WHERE l.memo_id IN (SELECT id FROM selected) ORDER BY l.memo_id, l.start
                """)
        try statement.bind(values)
        var links: [MemoStore.TextLink] = []
        while try statement.step() {
            let content = statement.string(at: 4)
            let utf8 = content.utf8
            let start = utf8.index(utf8.startIndex, offsetBy: Int(statement.int64(at: 1)))
            let end = utf8.index(start, offsetBy: Int(statement.int64(at: 2)))
            let lineStart =
                content[..<start].lastIndex { $0 == "\n" || $0 == "\r" }.map(content.index(after:))
                ?? content.startIndex
            let lineEnd = content[end...].firstIndex { $0 == "\n" || $0 == "\r" } ?? content.endIndex
            let before = content[lineStart..<start], after = content[end..<lineEnd]
            let written = String(content[start..<end])
            let named = statement.isNull(at: 3) ? nil : statement.string(at: 3)
            let link = MemoStore.TextLink(
                memoID: statement.int64(at: 0), start: Int(statement.int64(at: 1)), written: written,
                context: (before.count > Self.contextWidth ? "…" : "") + before.suffix(Self.contextWidth) + written
                    + after.prefix(Self.contextWidth) + (after.count > Self.contextWidth ? "…" : ""),
                namedUUID: named,
                target: try LinkIndex.linkedMemo(statement, at: 5, readable: ReadableText(database: database)),
                looksAccidental: AccidentalLinks.looksAccidental(
                    written: written, named: named != nil, textFromImport: statement.int64(at: 9) != 0,
                    lineBefore: before))
            if choice == .all || link.looksAccidental { links.append(link) }
        }
        return links
    }
}
