import MemoStore

/// Renders outcomes as text for people. The format may improve; programs use `--json`.
package struct TextRenderer: OutcomeRenderer {
    package var style: TextStyle

    package init(style: TextStyle) {
        self.style = style
    }

    package func render(_ outcome: Outcome, to output: OutputSink) throws(StoreError) {
        switch outcome {
        case .added(let memo): output.write("added #\(memo.id)\n")
        case .edited(let memo): output.write("edited #\(memo.id)\n")
        case .moved(let memo, let edited):
            let date = style.displayTime.format(memo.insertDate)
            output.write(edited ? "edited #\(memo.id) and moved it to \(date)\n" : "moved #\(memo.id) to \(date)\n")
        case .unchanged(let message): output.write(message + "\n")
        case .synced(let summary, let path, _):
            let conflicts =
                summary.conflicts == 0
                ? "" : ", " + Self.count(summary.conflicts, "conflict") + " kept as @conflict memos"
            // Paths as typed may hold control characters: shown visibly, as errors show them.
            output.write(
                "synced with \(TerminalText.row(path)): \(Self.count(summary.sent, "memo")) sent, \(summary.received) received\(conflicts)\n"
            )
        case .memos(let cursor, nil, let search?):
            var line: [UInt8] = []
            try forEachRow(in: cursor, to: output) { row throws(StoreError) in
                if appendPlainSearchLine(row, for: search, to: &line) {
                    output.write(utf8: line)
                } else {
                    let memo = row.memo
                    let text = try cursor.readableText(of: memo)
                    output.write(listLine(memo, text: text, snippet: SearchSnippet(of: text, for: search)) + "\n")
                }
                line.removeAll(keepingCapacity: true)
            }
        case .memos(let cursor, nil, nil):
            var line: [UInt8] = []
            try forEachRow(in: cursor, to: output) { row throws(StoreError) in
                if appendPlainListLine(row, to: &line) {
                    output.write(utf8: line)
                } else {
                    let memo = row.memo
                    output.write(listLine(memo, text: try listedText(of: memo, from: cursor)) + "\n")
                }
                line.removeAll(keepingCapacity: true)
            }
        case .memos(let cursor, let grouping?, _):
            var currentGroup: String?
            try forEach(in: cursor, to: output) { memo throws(StoreError) in
                let group = heading(of: memo, by: grouping)
                if group != currentGroup {
                    output.write((currentGroup == nil ? "" : "\n") + paint(group, .bold) + "\n")
                    currentGroup = group
                }
                output.write(listLine(memo, text: try listedText(of: memo, from: cursor)) + "\n")
            }
        case .exportStream(let cursor, let writer): try export(cursor, with: writer, to: output)
        case .batchBegun: output.write("batch begun: 'save' writes its changes together, 'rollback' discards them\n")
        case .batchSaved(let changes): output.write("saved \(Self.count(changes, "change"))\n")
        case .batchRolledBack(let changes): output.write("rolled back \(Self.count(changes, "change"))\n")
        case .undone(let entry): output.write("undid \(entry.label)\n")
        case .redone(let entry): output.write("redid \(entry.label)\n")
        case .syncUndone(let undo): output.write(SyncUndoWording.report(undo) + "\n")
        case .history(let entries): output.write(historyLines(entries))
        case .exported(let count, let path):
            output.write("exported \(count) memo\(count == 1 ? "" : "s") to \(TerminalText.row(path))\n")
        case .imported(let summary):
            let underNewUUID =
                summary.addedUnderNewUUID > 0
                ? " (\(summary.addedUnderNewUUID) under a new uuid: \(summary.addedUnderNewUUID == 1 ? "its own names" : "theirs name") another memo here)"
                : ""
            let reasons = [
                summary.alreadyThere > 0 ? "\(summary.alreadyThere) already in the store" : nil,
                summary.notNewer > 0
                    ? "\(summary.notNewer) not newer than \(summary.notNewer == 1 ? "its memo" : "their memos") here"
                    : nil
            ].compactMap { $0 }
            let alreadyThere = reasons.isEmpty ? "" : " (" + reasons.joined(separator: ", ") + ")"
            var parts = [
                "\(summary.added) added" + underNewUUID, "\(summary.updated) updated",
                "\(summary.skipped) skipped" + alreadyThere
            ]
            if summary.empty > 0 { parts.append("\(summary.empty) without text") }
            let source = summary.source.map { " from " + $0.wording } ?? ""
            output.write(
                "imported \(summary.records) record\(summary.records == 1 ? "" : "s")\(source): "
                    + parts.joined(separator: ", ") + "\n")
        case .shown(let memos): output.write(memos.map(block).joined(separator: "\n"))
        case .deleted(let ids, let referrers):
            let referenced =
                referrers.isEmpty
                ? "" : "; it was referenced by " + referrers.map { "#\($0.id)" }.joined(separator: ", ")
            output.write("deleted " + ids.map { "#\($0)" }.joined(separator: " ") + referenced + "\n")
        case .retagged(let memo):
            output.write("#\(memo.id) " + (memo.tags.isEmpty ? "has no tags" : tagList(memo.tags)) + "\n")
        case .tags(let counts): output.write(tagTable(counts))
        case .count(let count): output.write("\(count)\n")
        case .graph(let graph, let format, let drawing):
            try GraphWriter.write(graph, as: format ?? .dot, drawn: drawing, to: output)
        case .info(let info): output.write(infoTable(info))
        case .help(let topic): output.write(HelpText.text(for: topic))
        case .quit: break
        case .clockSet(let instant): output.write("clock \(style.displayTime.format(instant))\n")
        case .fixtureLoaded(let name, let added): output.write("loaded fixture \(name): \(Self.count(added, "memo"))\n")
        case .fixtures(let fixtures):
            let width = fixtures.map(\.name.count).max() ?? 0
            for fixture in fixtures {
                output.write(fixture.name.paddedWithSpaces(toLength: width + 2) + fixture.description + "\n")
            }
        case .memoIDs, .picked: try writeIDs(of: outcome, to: output)
        case .nothingPicked: break
        case .retaggedEach(let memos): for memo in memos { try render(.retagged(memo), to: output) }
        case .bulkEdited(let summary): output.write(BulkEditWording.line(summary) + "\n")
        case .textLinks(let links): for link in links { output.write(line(link) + "\n") }
        case .unlinked(let references, let memos):
            output.write("unlinked \(Self.count(references, "reference")) in \(Self.count(memos, "memo"))\n")
        case .tagRenamed(let old, let new, let memos):
            output.write("renamed @\(old) to @\(new) on \(Self.count(memos, "memo"))\n")
        case .calendar(let year): output.write(CalendarText(year: year, color: style.color).text)
        case .statistics(let statistics): output.write(StatisticsText(statistics: statistics).text)
        }
    }

    /// `#ID  YYYY-MM-DD HH:MM:SS  first line of text  @tags`, the whole line within the width:
    /// the text is shortened first so the tags stay visible; where even a few columns of
    /// text and the tags do not fit, the tags go; on a terminal too narrow for the id and
    /// date, those are cut too. A tag the shown text already shows as `@word` is not
    /// repeated, unless shortening cut it off. For a search, the line shown is the one that
    /// matched (`snippet`), begun shortly before its first match when that would be cut off,
    /// with the matches highlighted on a colour terminal. `text` is the memo's text as a person
    /// here reads it (`Notebook.readableText(of:)`), which a snippet is of too.
    func listLine(_ memo: Memo, text: String, snippet: SearchSnippet? = nil) -> String {
        let head = "#\(memo.id)  " + style.displayTime.format(memo.insertDate)
        func shown(room: Int?) -> (text: String, matches: [Range<Int>]) {
            snippet.map { shownLine($0, room: room) } ?? (text: firstLine(of: text), matches: [])
        }
        guard let width = style.width else {
            let line = shown(room: nil)
            return painted(
                head, line.text, line.matches, tags: memo.tags.isEmpty ? "" : tagSuffix(memo.tags, shownIn: line.text))
        }
        let headWidth = DisplayWidth.of(head)
        guard headWidth + 2 < width else { return paint(DisplayWidth.shorten(head, to: width), .dim) }
        let textRoom = width - headWidth - 2
        // A snippet is begun before its match for the room the tags leave the text; when the
        // tags then take more (inline ones that the new start cut off), again for what is left.
        var room = textRoom
        while true {
            let line = shown(room: room)
            let (text, tags) = fitted(line.text, tags: memo.tags, room: textRoom)
            let left = textRoom - DisplayWidth.of(tags)
            if snippet == nil || left >= room { return painted(head, text, line.matches, tags: tags) }
            room = left
        }
    }

    /// The text a listed memo's line is made from: as read here when the line it shows holds a
    /// `#` (a link there may read otherwise), else as stored, at no query.
    private func listedText(of memo: Memo, from cursor: MemoCursor) throws(StoreError) -> String {
        guard firstLine(of: memo.content).utf8.contains(UInt8(ascii: "#")) else { return memo.content }
        return try cursor.readableText(of: memo)
    }

    /// The line shortened to `room` columns with the tags it does not show after it; without
    /// the tags where even a few columns of text and they do not fit.
    private func fitted(_ line: String, tags memoTags: [String], room: Int) -> (text: String, tags: String) {
        var tags = memoTags.isEmpty ? "" : tagSuffix(memoTags, shownIn: line)
        if min(DisplayWidth.of(line), Self.shortestUsefulText) + DisplayWidth.of(tags) > room { tags = "" }
        var text = DisplayWidth.shorten(line, to: room - DisplayWidth.of(tags))
        if text != line, !memoTags.isEmpty {
            // Shortening may have cut off an inline tag: show it at the end instead.
            let fullTags = tagSuffix(memoTags, shownIn: text)
            if fullTags != tags, min(DisplayWidth.of(text), Self.shortestUsefulText) + DisplayWidth.of(fullTags) <= room
            {
                tags = fullTags
                text = DisplayWidth.shorten(line, to: room - DisplayWidth.of(tags))
            }
        }
        return (text, tags)
    }

    /// The listed line, in colour on a colour terminal, the matches in bold.
    private func painted(_ head: String, _ text: String, _ matches: [Range<Int>], tags: String) -> String {
        guard style.color else { return head + "  " + text + tags }
        let idEnd = head.firstIndex(of: " ") ?? head.endIndex
        return paint(String(head[..<idEnd]), .yellow) + "  " + paint(String(head[idEnd...].dropFirst(2)), .dim)
            + "  " + highlighted(text, matches) + paint(tags, .cyan)
    }

    /// The snippet's line as a row, and its matches as character offsets in that row (for a
    /// colour terminal, which alone shows them; none otherwise): begun before the first match
    /// (after `…`) when the match would not fit in `room` columns otherwise, with up to
    /// `contextBeforeMatch` characters before it, fewer when the room is narrow, so the match
    /// itself shows; `… ` before it when it is not the memo's first line,
    /// ` …` after it when more lines follow. Control characters are shown as `TerminalText`
    /// shows them, the matches' offsets counted in what is shown.
    private func shownLine(_ snippet: SearchSnippet, room: Int?) -> (text: String, matches: [Range<Int>]) {
        let line = snippet.line
        var start = line.startIndex
        if let room, let first = snippet.matches.first {
            let around = (snippet.followsLines ? 2 : 0) + (snippet.isFollowed ? 2 : 0)
            // A row cut at the room's edge ends in `…`, which takes a column of its own.
            let ellipsis = DisplayWidth.of(TerminalText.row(line)) + around > room ? 1 : 0
            if DisplayWidth.of(TerminalText.row(line[..<first.upperBound])) + around + ellipsis > room {
                // Half of what the match leaves goes before it, at most contextBeforeMatch.
                let spare = max(0, room - 1 - around - DisplayWidth.of(TerminalText.row(line[first]))) / 2
                var width = 0, count = 0
                start = first.lowerBound
                while start > line.startIndex, count < Self.contextBeforeMatch {
                    let previous = line.index(before: start)
                    width += DisplayWidth.of(TerminalText.row(line[previous..<start]))
                    guard width <= spare else { break }
                    start = previous
                    count += 1
                }
            }
        }
        var text = start == line.startIndex ? (snippet.followsLines ? "… " : "") : "…"
        var matches: [Range<Int>] = []
        var index = start
        for match in snippet.matches where match.lowerBound >= index {
            text += TerminalText.row(line[index..<match.lowerBound])
            // Counted only for colour, which alone shows them: counting is a walk of the row.
            let lower = style.color ? text.count : 0
            text += TerminalText.row(line[match])
            if style.color { matches.append(lower..<text.count) }
            index = match.upperBound
        }
        text += TerminalText.row(line[index...]) + (snippet.isFollowed ? " …" : "")
        return (text, matches)
    }

    /// Characters of a matched line kept before its first match when the line is begun there.
    private static let contextBeforeMatch = 12

    /// `text` with the characters at `matches` (offsets) in bold, on a colour terminal; a match
    /// that shortening cut is bold as far as it goes.
    private func highlighted(_ text: String, _ matches: [Range<Int>]) -> String {
        guard style.color, !matches.isEmpty else { return text }
        var result = "", offset = 0
        for character in text {
            let isMatch = matches.contains { $0.contains(offset) }
            let wasMatch = offset > 0 && matches.contains { $0.contains(offset - 1) }
            if isMatch && !wasMatch { result += "\u{1B}[1m" }
            if !isMatch && wasMatch { result += "\u{1B}[22m" }
            result.append(character)
            offset += 1
        }
        if matches.contains(where: { $0.contains(offset - 1) }) { result += "\u{1B}[22m" }
        return result
    }

    /// Appends the line `listLine` writes for the row, and its line break, made from the
    /// row's bytes without decoding the memo: for output to a pipe (no width, no colour),
    /// when the first line is plain text (`ByteText.isPlain`), not blank, without a `#` (a
    /// link there may read otherwise, `ReadableText`), whose inline tags are plain ASCII.
    /// False, with nothing appended, otherwise: `listLine` then does it.
    func appendPlainListLine(_ row: MemoRow, to bytes: inout [UInt8]) -> Bool {
        guard style.width == nil, !style.color else { return false }
        return row.withContent { content -> Bool in
            let lineEnd = ByteText.firstIndex(of: UInt8(ascii: "\n"), in: content) ?? content.count
            let endsWithCR = lineEnd < content.count && lineEnd > 0 && content[lineEnd - 1] == UInt8(ascii: "\r")
            let firstLine = UnsafeRawBufferPointer(rebasing: content[..<(endsWithCR ? lineEnd - 1 : lineEnd)])
            guard firstLine.contains(where: { $0 != UInt8(ascii: " ") && $0 != UInt8(ascii: "\t") }),
                ByteText.firstIndex(of: UInt8(ascii: "#"), in: firstLine) == nil
            else { return false }
            return appendPlainLine(
                of: row, showing: firstLine, followsLines: false, isFollowed: lineEnd < content.count, to: &bytes)
        }
    }

    /// Appends the line `listLine` writes for a search's row, made from its bytes as
    /// `appendPlainListLine` makes a listing's: the memo's only line whole (to a pipe it is
    /// shown whole whether it matched or no line did, so it is not folded); of a text of
    /// lines, valid UTF-8 without a `#` (it reads as stored), the line that matched
    /// (`SearchSnippet`), or the first when none did. False, with nothing appended, otherwise.
    func appendPlainSearchLine(_ row: MemoRow, for search: SearchQuery, to bytes: inout [UInt8]) -> Bool {
        guard style.width == nil, !style.color else { return false }
        return row.withContent { content -> Bool in
            guard ByteText.firstIndex(of: UInt8(ascii: "\n"), in: content) != nil else {
                return appendPlainListLine(row, to: &bytes)
            }
            guard ByteText.firstIndex(of: UInt8(ascii: "#"), in: content) == nil, ByteText.isValid(content) else {
                return false
            }
            guard let snippet = SearchSnippet(of: String(decoding: content, as: UTF8.self), for: search) else {
                return appendPlainListLine(row, to: &bytes)
            }
            var line = snippet.line
            return line.withUTF8 {
                appendPlainLine(
                    of: row, showing: UnsafeRawBufferPointer($0), followsLines: snippet.followsLines,
                    isFollowed: snippet.isFollowed, to: &bytes)
            }
        }
    }

    /// Appends `#ID  date  line  @tags` for the row showing `line`, `… ` before it when lines
    /// precede it and ` …` after it when lines follow, with the tags it does not show inline:
    /// when the line and the tags are plain text (`ByteText.isPlain`) and its inline tags
    /// plain ASCII. False, with nothing appended, otherwise.
    private func appendPlainLine(
        of row: MemoRow, showing line: UnsafeRawBufferPointer, followsLines: Bool, isFollowed: Bool,
        to bytes: inout [UInt8]
    ) -> Bool {
        row.withTagNames { tags -> Bool in
            guard ByteText.isPlain(line), ByteText.isPlain(tags), let shownTags = ByteText.asciiInlineTags(line) else {
                return false
            }
            bytes.append(UInt8(ascii: "#"))
            ByteText.appendDecimal(row.id, to: &bytes)
            ByteText.append("  ", to: &bytes)
            style.displayTime.appendFormatted(row.insertDate, to: &bytes)
            ByteText.append("  ", to: &bytes)
            if followsLines { ByteText.append("… ", to: &bytes) }
            bytes += line
            if isFollowed { ByteText.append(" …", to: &bytes) }
            var listsTags = false
            ByteText.forEachWord(in: tags) { name in
                guard !shownTags.contains(where: { ByteText.lowercased(line[$0], equals: name) }) else { return }
                ByteText.append(listsTags ? " @" : "  @", to: &bytes)
                bytes += name
                listsTags = true
            }
            bytes.append(UInt8(ascii: "\n"))
            return true
        }
    }

    /// `  @a @b` for the tags that `text` does not show as inline `@words`, or "" for none.
    private func tagSuffix(_ tags: [String], shownIn text: String) -> String {
        guard text.utf8.contains(UInt8(ascii: "@")) else { return "  " + tagList(tags) }
        let shown = Set(TagName.inlineTags(in: text))
        let rest = tags.filter { !shown.contains($0) }
        return rest.isEmpty ? "" : "  " + tagList(rest)
    }

    /// Columns of text worth keeping on a narrow terminal before the tags are given up.
    private static let shortestUsefulText = 8

    /// `12  2000-01-01 00:00:05  edit      1 memo    Buy milk`: the entries of `history`, with
    /// what an undo or redo acted on and whether the entry is undone now. Columns are as wide
    /// as their widest entry needs (numbers right-aligned), so no count is cut or glued to the
    /// summary; each line fits the width as `listLine` fits it, the summary shortened first.
    private func historyLines(_ entries: [HistoryEntry]) -> String {
        let sequences = entries.map { String($0.sequence) }
        let actions = entries.map { $0.kind.isUndoOrRedo ? "\($0.kind.rawValue) \($0.target ?? 0)" : $0.kind.rawValue }
        let counts = entries.map { Self.count($0.memoCount, "memo") }
        let sequenceWidth = sequences.map(\.count).max() ?? 0
        let actionWidth = max(Self.historyColumnWidth, actions.map(\.count).max() ?? 0)
        let countWidth = max(Self.historyColumnWidth, counts.map(\.count).max() ?? 0)
        return zip(entries, zip(sequences, zip(actions, counts))).map { entry, columns in
            let (sequence, (action, count)) = columns
            let indent = String(repeating: " ", count: sequenceWidth - sequence.count)
            let time = style.displayTime.format(entry.time)
            let middle =
                "  " + action.paddedWithSpaces(toLength: actionWidth) + "  "
                + count.paddedWithSpaces(toLength: countWidth) + "  "
            let undone = entry.isUndone ? "  (undone)" : ""
            var summary = TerminalText.row(entry.summary)
            if let width = style.width {
                let headWidth = sequenceWidth + 2 + DisplayWidth.of(time) + middle.count
                guard headWidth + undone.count < width else {
                    return DisplayWidth.shorten(indent + sequence + "  " + time + middle + summary + undone, to: width)
                        + "\n"
                }
                summary = DisplayWidth.shorten(summary, to: width - headWidth - undone.count)
            }
            return indent + paint(sequence, .yellow) + "  " + paint(time, .dim) + middle + summary + undone + "\n"
        }.joined()
    }

    /// The narrowest the action and memo count columns of `history` are, so short histories
    /// line up the same from one listing to the next.
    private static let historyColumnWidth = 8

    /// `1 memo`, `3 memos`.
    private static func count(_ number: Int, _ noun: String) -> String {
        "\(number) \(noun)\(number == 1 ? "" : "s")"
    }

    /// `YYYY-MM-DD` or `YYYY-MM` of the memo's insert date in the display time zone.
    private func heading(of memo: Memo, by grouping: ListGrouping) -> String {
        let date = style.displayTime.format(memo.insertDate)
        return String(date.prefix(grouping == .day ? 10 : 7))
    }

    /// A whole memo as `show` gives it: a header of fields (its handle after its uuid), a
    /// blank line, then its full text as a person here reads it.
    package func block(_ shown: ShownMemo) -> String {
        block(shown.memo, links: shown.links, text: shown.text, handle: shown.handle)
    }

    /// A whole memo: a header of fields, a blank line, then its full text (`text`, its text
    /// as a person here reads it, when known).
    package func block(
        _ memo: Memo, links: MemoStore.Links = MemoStore.Links(), text: String? = nil, handle: MemoHandle? = nil
    ) -> String {
        let time = style.displayTime
        let text = text ?? memo.content
        return paint("#\(memo.id)", .yellow) + "\n"
            + "uuid:     \(memo.uuid)\n"
            + (handle.map { "handle:   \($0)\n" } ?? "")
            + "inserted: \(time.format(memo.insertDate))\n"
            + "updated:  \(memo.updateDate.map(time.format) ?? "never")\n"
            + "tags:     \(memo.tags.isEmpty ? "none" : tagList(memo.tags))\n"
            + linkLines(links)
            + "\n" + TerminalText.block(text) + (text.hasSuffix("\n") ? "" : "\n")
    }

    /// A reference of `memo links`: `#12  #1 → #1 Buy milk  "Rule #1: never panic"`, the memo
    /// whose text makes it, the reference as written, where it leads (`(deleted)`: a memo
    /// deleted since; `(none)`: words, not a link), and the words around it.
    private func line(_ link: MemoStore.TextLink) -> String {
        let leads =
            link.target.map { "#\($0.id) " + TerminalText.row($0.title) }
            ?? (link.namedUUID == nil ? "(none)" : "(deleted)")
        return paint("#\(link.memoID)", .yellow) + "  " + TerminalText.row(link.written) + " → " + leads + "  \""
            + TerminalText.row(link.context) + "\""
    }

    /// `links:` and a line for each memo the text links to (`→ #3 Buy milk`; for one not here,
    /// its handle, never a number that may be another memo's here, and its last first line
    /// when the history keeps it, `(deleted)`, or `(not here)` when nothing more is known; a
    /// `memo:` reference as written and `(no such memo)` when it named none) and each memo
    /// referencing it (`← #15 Weekly plan`); nothing for a memo without links.
    private func linkLines(_ links: MemoStore.Links) -> String {
        guard !links.isEmpty else { return "" }
        let rows =
            links.linked.map { link in
                if let target = link.target { return linkRow("→", target) }
                guard let missing = link.missing else { return "→ \(TerminalText.row(link.written)) (no such memo)" }
                return missingRow(missing)
            } + links.incoming.map { linkRow("←", $0) }
        return rows.enumerated().map { ($0.offset == 0 ? "links:    " : "          ") + $0.element + "\n" }.joined()
    }

    /// `→ #3 Buy milk`: the memo's first line shortened so the row, after the label's ten
    /// columns, fits the width as a listed memo does.
    private func linkRow(_ arrow: String, _ memo: MemoStore.LinkedMemo) -> String {
        let head = "\(arrow) #\(memo.id) "
        var title = TerminalText.row(memo.title)
        if let width = style.width {
            title = DisplayWidth.shorten(title, to: max(1, width - 10 - DisplayWidth.of(head)))
        }
        return "\(arrow) \(paint("#\(memo.id)", .yellow)) \(title)"
    }

    /// `→ memo:8e75e0e6 Buy milk (deleted)`, shortened as `linkRow` shortens its title.
    private func missingRow(_ missing: MemoStore.MissingMemo) -> String {
        let head = "→ \(missing.handle) "
        guard var title = missing.title.map(TerminalText.row) else { return head + "(not here)" }
        if let width = style.width {
            title = DisplayWidth.shorten(title, to: max(1, width - 10 - DisplayWidth.of(head) - 10))
        }
        return "→ \(paint(missing.handle.description, .yellow)) \(title) (deleted)"
    }

    /// The text up to its first line break, made safe for a row, with ` …` when more follows.
    /// The first line of a memo as a row, ` …` after it when more lines follow; a memo that
    /// begins with blank lines is listed by its first line with text.
    private func firstLine(of content: String) -> String {
        var start = content.startIndex
        if content.first?.isWhitespace == true {
            // Line feeds found by bytes: a CR LF is one `Character`, not "\n".
            while let end = content.utf8[start...].firstIndex(of: UInt8(ascii: "\n")),
                content[start..<end].allSatisfy(\.isWhitespace),
                content[content.utf8.index(after: end)...].contains(where: { !$0.isWhitespace })
            {
                start = content.utf8.index(after: end)
            }
        }
        let (row, hasMore) = TerminalText.firstRow(
            of: start == content.startIndex ? content : String(content[start...]))
        return hasMore ? row + " …" : row
    }

    private func tagList(_ tags: [String]) -> String {
        tags.map { "@" + $0 }.joined(separator: " ")
    }

    private func tagTable(_ counts: [TagCount]) -> String {
        let width = counts.map { DisplayWidth.of($0.name) + 1 }.max() ?? 0
        return counts.map { tag in
            let name = "@" + tag.name
            return paint(name, .cyan) + String(repeating: " ", count: width - DisplayWidth.of(name) + 2)
                + "\(tag.count)\n"
        }.joined()
    }

    private func infoTable(_ info: NotebookInfo) -> String {
        let store = info.store
        let rows: [(String, String)] = [
            ("store", store.location.isMemory ? "in memory" : store.isEncrypted ? "on disk, encrypted" : "on disk"),
            ("path", TerminalText.row(store.location.displayPath)),
            ("schema version", "\(store.schemaVersion)"),
            ("memos", "\(store.memoCount)"),
            ("sqlite", store.sqliteVersion),
            ("journal mode", store.journalMode),
            ("unsaved changes", "\(info.unsavedChanges)")
        ]
        return rows.map { key, value in
            (key + ":").paddedWithSpaces(toLength: 17) + value + "\n"
        }.joined()
    }

    private enum Paint: String {
        case yellow = "33", cyan = "36", dim = "2", bold = "1"
    }

    private func paint(_ text: String, _ paint: Paint) -> String {
        guard style.color, !text.isEmpty else { return text }
        return "\u{1B}[\(paint.rawValue)m\(text)\u{1B}[0m"
    }
}
