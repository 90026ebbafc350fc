import MemoStore

/// Renders outcomes as JSON for programs: memos as JSON Lines (one object per line, so a
/// million memos stream), everything else as one object.
package struct JSONRenderer: OutcomeRenderer {
    package init() {}

    package func render(_ outcome: Outcome, to output: OutputSink) throws(StoreError) {
        func line(_ value: JSONValue) { output.write(value.serialized + "\n") }
        switch outcome {
        case .added(let memo), .edited(let memo), .retagged(let memo), .moved(let memo, _): line(Self.json(memo))
        case .synced(let summary, let path, let traffic):
            var members: [(String, JSONValue)] = [
                ("synced", .string(path)), ("sent", .integer(Int64(summary.sent))),
                ("received", .integer(Int64(summary.received))), ("conflicts", .integer(Int64(summary.conflicts)))
            ]
            if let traffic {
                members += [
                    ("bytesSent", .integer(Int64(traffic.bytesSent))),
                    ("bytesReceived", .integer(Int64(traffic.bytesReceived)))
                ]
            }
            line(.object(members))
        case .unchanged(let message): line(.object([("changed", .bool(false)), ("message", .string(message))]))
        case .memos(let cursor, _, let search?):
            // A search's memo objects also give the line that matched (the first line when
            // the match is not within one line).
            try forEach(in: cursor, to: output) { memo in
                guard case .object(var members) = Self.json(memo) else { return }
                let snippet =
                    SearchSnippet(of: memo.content, for: search)?.line
                    ?? String(memo.content.prefix { $0 != "\n" })
                members.append(("snippet", .string(snippet)))
                line(.object(members))
            }
        case .memos(let cursor, _, nil):
            var line: [UInt8] = []
            try forEachRow(in: cursor, to: output) { row in
                Self.appendJSONLine(of: row, to: &line)
                output.write(utf8: line)
                line.removeAll(keepingCapacity: true)
            }
        case .exportStream(let cursor, let writer): try export(cursor, with: writer, to: output)
        case .batchBegun: line(.object([("batch", .string("begun"))]))
        case .batchSaved(let changes): line(.object([("saved", .integer(Int64(changes)))]))
        case .batchRolledBack(let changes): line(.object([("rolledBack", .integer(Int64(changes)))]))
        case .undone(let entry), .redone(let entry): line(Self.json(entry))
        case .syncUndone(let undo):
            let entry = undo.sync
            guard case .object(let members) = Self.json(entry) else { return }
            line(
                .object(
                    members + [
                        ("putBack", .integer(Int64(undo.putBack))), ("kept", .integer(Int64(undo.kept))),
                        ("peer", entry.peer.map(JSONValue.string) ?? .null)
                    ]))
        case .history(let entries): entries.forEach { line(Self.json($0)) }
        case .exported(let count, let path):
            line(.object([("exported", .integer(Int64(count))), ("path", .string(path))]))
        case .imported(let summary):
            line(
                .object(
                    [
                        ("added", .integer(Int64(summary.added))), ("updated", .integer(Int64(summary.updated))),
                        ("skipped", .integer(Int64(summary.skipped))), ("empty", .integer(Int64(summary.empty))),
                        ("addedUnderNewUUID", .integer(Int64(summary.addedUnderNewUUID))),
                        ("alreadyThere", .integer(Int64(summary.alreadyThere))),
                        ("notNewer", .integer(Int64(summary.notNewer)))
                    ] + (summary.source?.jsonMembers ?? [])))
        case .shown(let memos): memos.forEach { line(Self.json($0)) }
        case .deleted(let ids, let referrers):
            var fields: [(String, JSONValue)] = [("deleted", .array(ids.map(JSONValue.integer)))]
            if !referrers.isEmpty { fields.append(("referencedBy", .array(referrers.map { .integer($0.id) }))) }
            line(.object(fields))
        case .tags(let counts): line(.object([("tags", .array(counts.map(Self.json)))]))
        case .count(let count): line(.object([("count", .integer(Int64(count)))]))
        case .graph(let graph, let format, let drawing):
            try GraphWriter.write(graph, as: format ?? .json, drawn: drawing, to: output)
        case .info(let info): line(Self.json(info))
        case .help(let topic): line(.object([("help", .string(HelpText.text(for: topic)))]))
        case .quit: break
        case .clockSet(let instant): line(.object([("clock", .string(DisplayTime.iso8601(instant)))]))
        case .fixtureLoaded(let name, let added):
            line(.object([("fixture", .string(name)), ("added", .integer(Int64(added)))]))
        case .fixtures(let fixtures):
            line(
                .object([
                    (
                        "fixtures",
                        .array(
                            fixtures.map {
                                .object([("name", .string($0.name)), ("description", .string($0.description))])
                            })
                    )
                ]))
        case .memoIDs, .picked: try writeIDs(of: outcome, to: output)
        case .nothingPicked: break
        case .retaggedEach(let memos): memos.forEach { line(Self.json($0)) }
        case .bulkEdited(let summary):
            line(
                .object(
                    [("edited", summary.edited), ("deleted", summary.deleted), ("added", summary.added)].map {
                        ($0, .array($1.map(JSONValue.integer)))
                    }))
        case .textLinks(let links): links.forEach { line(Self.json($0)) }
        case .unlinked(let references, let memos):
            line(.object([("unlinked", .integer(Int64(references))), ("memos", .integer(Int64(memos)))]))
        case .tagRenamed(let old, let new, let memos):
            line(.object([("renamed", .string(old)), ("to", .string(new)), ("memos", .integer(Int64(memos)))]))
        case .calendar(let year): line(Self.json(year))
        case .statistics(let statistics): line(Self.json(statistics))
        }
    }

    /// The memo object of docs/REFERENCE.md, JSON.
    package static func json(_ memo: Memo) -> JSONValue {
        .object([
            ("id", .integer(memo.id)),
            ("uuid", .string(memo.uuid)),
            ("content", .string(memo.content)),
            ("insertDate", .string(DisplayTime.iso8601(memo.insertDate))),
            ("updateDate", memo.updateDate.map { .string(DisplayTime.iso8601($0)) } ?? .null),
            ("tags", .array(memo.tags.map(JSONValue.string)))
        ])
    }

    /// The memo object with its `handle` (after `uuid`), `links` (what its text links to:
    /// `reference` as written, the `uuid` of the memo it named, null for none, and that
    /// memo's `id` here, null when it is not here) and `backlinks` (the memos referencing
    /// it). Its `content` is the text as stored, which others import: the links say what
    /// each reference names.
    package static func json(_ shown: ShownMemo) -> JSONValue {
        let (memo, links) = (shown.memo, shown.links)
        guard case .object(var fields) = json(memo) else { return json(memo) }
        fields.insert(("handle", .string(shown.handle.description)), at: 2)
        fields.append(
            (
                "links",
                .array(
                    links.linked.map { link in
                        .object([
                            ("reference", .string(link.written)), ("id", link.target.map { .integer($0.id) } ?? .null),
                            ("uuid", link.namedUUID.map(JSONValue.string) ?? .null)
                        ])
                    })
            ))
        fields.append(
            ("backlinks", .array(links.incoming.map { .object([("id", .integer($0.id)), ("uuid", .string($0.uuid))]) }))
        )
        return .object(fields)
    }

    /// A reference of `memo links`: its memo, place, the reference as written and the words
    /// around it, the memo it leads to here (`id`, null when it is not here) and the `uuid` it
    /// names (null: none, words), and whether it looks accidental.
    static func json(_ link: MemoStore.TextLink) -> JSONValue {
        .object([
            ("memo", .integer(link.memoID)), ("start", .integer(Int64(link.start))),
            ("reference", .string(link.written)), ("context", .string(link.context)),
            ("id", link.target.map { .integer($0.id) } ?? .null),
            ("uuid", link.namedUUID.map(JSONValue.string) ?? .null), ("accidental", .bool(link.looksAccidental))
        ])
    }

    /// Appends the memo object of a row and a line break, as `json(row.memo)` writes it. Its text
    /// is copied as bytes when it is valid UTF-8, without making the memo's Strings; a row
    /// whose bytes are not (written by another program) is decoded, repairing them.
    package static func appendJSONLine(of row: MemoRow, to bytes: inout [UInt8]) {
        let copied = row.withUUID { uuid in
            row.withContent { content in
                row.withTagNames { tags in
                    guard ByteText.isValid(uuid), ByteText.isValid(content), ByteText.isValid(tags) else {
                        return false
                    }
                    ByteText.append(#"{"id":"#, to: &bytes)
                    ByteText.appendDecimal(row.id, to: &bytes)
                    ByteText.append(#","uuid":"#, to: &bytes)
                    JSONValue.appendString(uuid, to: &bytes)
                    ByteText.append(#","content":"#, to: &bytes)
                    JSONValue.appendString(content, to: &bytes)
                    ByteText.append(#","insertDate":""#, to: &bytes)
                    DisplayTime.appendISO8601(row.insertDate, to: &bytes)
                    ByteText.append(#"","updateDate":"#, to: &bytes)
                    if let updateDate = row.updateDate {
                        bytes.append(UInt8(ascii: "\""))
                        DisplayTime.appendISO8601(updateDate, to: &bytes)
                        bytes.append(UInt8(ascii: "\""))
                    } else {
                        ByteText.append("null", to: &bytes)
                    }
                    ByteText.append(#","tags":["#, to: &bytes)
                    for (index, name) in tags.split(separator: UInt8(ascii: " ")).enumerated() {
                        if index > 0 { bytes.append(UInt8(ascii: ",")) }
                        JSONValue.appendString(UnsafeRawBufferPointer(rebasing: name), to: &bytes)
                    }
                    ByteText.append("]}\n", to: &bytes)
                    return true
                }
            }
        }
        if !copied { bytes += (json(row.memo).serialized + "\n").utf8 }
    }

    /// A history entry: `{"seq","at","kind","target","memos","summary","undone"}`.
    package static func json(_ entry: HistoryEntry) -> JSONValue {
        .object([
            ("seq", .integer(entry.sequence)),
            ("at", .string(DisplayTime.iso8601(entry.time))),
            ("kind", .string(entry.kind.rawValue)),
            ("target", entry.target.map(JSONValue.integer) ?? .null),
            ("memos", .integer(Int64(entry.memoCount))),
            ("summary", .string(entry.summary)),
            ("undone", .bool(entry.isUndone))
        ])
    }

    package static func json(_ tag: TagCount) -> JSONValue {
        .object([("name", .string(tag.name)), ("count", .integer(Int64(tag.count)))])
    }

    package static func json(_ info: NotebookInfo) -> JSONValue {
        let store = info.store
        return .object([
            ("mode", .string(store.location.isMemory ? "memory" : "disk")),
            ("path", store.location.isMemory ? .null : .string(store.location.displayPath)),
            ("schemaVersion", .integer(Int64(store.schemaVersion))),
            ("memoCount", .integer(Int64(store.memoCount))),
            ("sqliteVersion", .string(store.sqliteVersion)),
            ("journalMode", .string(store.journalMode)),
            ("encrypted", .bool(store.isEncrypted)),
            ("unsavedChanges", .integer(Int64(info.unsavedChanges)))
        ])
    }
}
