extension Schema {
    /// Fills the link index with the references every memo's text makes, by the link rule of
    /// version 10: a `#ID` names the memo that has that id in this store (none when there is
    /// none), a `memo:UUID` that uuid.
    static func linkEveryMemo(_ database: Database) throws {
        let insert = try database.prepare(
            """
            INSERT INTO memo_link(memo_id, start, length, target_uuid)
            VALUES (?1, ?2, ?3, coalesce(?4, (SELECT uuid FROM memo WHERE id = ?5)))
            """)
        try Migration.forEachMemo(in: database) { id, content in
            for link in Version10LinkRule.links(in: content) {
                let (uuid, target): (SQLiteValue, SQLiteValue) =
                    switch link.target {
                    case .id(let target): (.null, .integer(target))
                    case .uuid(let uuid): (.text(uuid), .null)
                    }
                try insert.run([.integer(id), .integer(Int64(link.start)), .integer(Int64(link.length)), uuid, target])
            }
        }
    }
}

/// The link rule of version 10's backfill, frozen, and reached from nothing else: the
/// references a memo's text makes, read as Markdown. The live rule is `TextReferences`'s; a
/// change of it comes with a migration that links again, never a change here.
///
/// A reference is `#` and digits naming an id above 0, or `memo:` (any case) and a uuid
/// (lower-cased), at a word start and ending at a word end (letters, digits and `_` make
/// words), that does not stand in a fenced code block, a code span, a URL (after `://` in
/// its run without white space), a tag of markup (`<a href="#1">`), and for a `#`, right
/// after `/` or `&`, in a link's fragment (`](#1)`) or after a link definition's label
/// (`[x]: #1`). Lines end at `\n`, `\r\n` or `\r`; places are counted in UTF-8 bytes.
private enum Version10LinkRule {
    enum Target { case id(Int64), uuid(String) }

    struct Link {
        let start: Int, length: Int, target: Target
    }

    static func links(in text: String) -> [Link] {
        var links: [Link] = [], fence: (mark: Character, length: Int)?, offset = 0
        for line in lines(of: text) {
            defer { offset += line.text.utf8.count + line.breakLength }
            let characters = Array(line.text)
            let bare = unnested(characters)
            if let open = fence {
                let run = bare.drop { $0 == " " }
                let marks = run.prefix { $0 == open.mark }
                if bare.count - run.count <= 3, marks.count >= open.length,
                    run.dropFirst(marks.count).allSatisfy({ $0 == " " })
                {
                    fence = nil
                }
            } else if let opened = opening(bare) {
                fence = opened
            } else {
                links += references(in: characters).map {
                    Link(start: offset + $0.start, length: $0.length, target: $0.target)
                }
            }
        }
        return links
    }

    /// The lines of `text`, each with the length of the break after it.
    private static func lines(of text: String) -> [(text: Substring, breakLength: Int)] {
        var lines: [(text: Substring, breakLength: Int)] = []
        var rest = text[...]
        while true {
            guard let end = rest.utf8.firstIndex(where: { $0 == 0x0A || $0 == 0x0D }) else {
                lines.append((rest, 0))
                return lines
            }
            let next = rest.utf8.index(after: end)
            let isCRLF = rest.utf8[end] == 0x0D && next < rest.endIndex && rest.utf8[next] == 0x0A
            lines.append((rest[..<end], isCRLF ? 2 : 1))
            rest = rest[rest.utf8.index(end, offsetBy: isCRLF ? 2 : 1)...]
        }
    }

    /// A line without the block quote marks, list markers and indentation before it.
    private static func unnested(_ line: [Character]) -> ArraySlice<Character> {
        var rest = line[...]
        while true {
            rest = rest.drop { $0 == " " || $0 == "\t" }
            let number = rest.prefix { $0.isASCII && $0.isNumber }
            if rest.first == ">" {
                rest = rest.dropFirst()
            } else if rest.count >= 2, "-*+".contains(rest[rest.startIndex]), rest[rest.startIndex + 1] == " " {
                rest = rest.dropFirst(2)
            } else if (1...9).contains(number.count), rest.count >= number.count + 2,
                [".", ")"].contains(rest[number.endIndex]), rest[number.endIndex + 1] == " "
            {
                rest = rest.dropFirst(number.count + 2)
            } else {
                return rest
            }
        }
    }

    /// The fence a line opens: up to three spaces, three or more backticks (with none after)
    /// or tildes.
    private static func opening(_ line: ArraySlice<Character>) -> (mark: Character, length: Int)? {
        let run = line.drop { $0 == " " }
        guard line.count - run.count <= 3, let mark = run.first, mark == "`" || mark == "~" else { return nil }
        let marks = run.prefix { $0 == mark }.count
        guard marks >= 3, mark == "~" || !run.dropFirst(marks).contains("`") else { return nil }
        return (mark, marks)
    }

    /// The references of a line outside fences, with places in the line's UTF-8 bytes.
    private static func references(in line: [Character]) -> [(start: Int, length: Int, target: Target)] {
        let spans = codeSpans(line)
        var offsets = [0]
        for character in line { offsets.append(offsets[offsets.count - 1] + character.utf8.count) }
        var found: [(start: Int, length: Int, target: Target)] = []
        var at = 0
        while at < line.count {
            let end = ["#", "m", "M"].contains(line[at]) ? referenceEnd(at, in: line) : nil
            guard let end, !spans.contains(where: { $0.contains(at) }) else {
                at += 1
                continue
            }
            found.append((offsets[at], offsets[end.index] - offsets[at], end.target))
            at = end.index
        }
        return found
    }

    /// Where a reference starting at `at` ends, and what it names.
    private static func referenceEnd(_ at: Int, in line: [Character]) -> (index: Int, target: Target)? {
        let before = at > 0 ? line[at - 1] : nil
        if let before, isWordCharacter(before) { return nil }
        if line[at] == "#" {
            guard before.map({ $0 != "/" && $0 != "&" }) ?? true, !isInURL(at, line), !isInTag(at, line),
                !(at >= 2 && line[at - 2] == "]" && line[at - 1] == "("), !followsLinkLabel(at, line)
            else { return nil }
            let digits = line[(at + 1)...].prefix { $0.isASCII && $0.isWholeNumber }
            guard !digits.isEmpty, endsWord(digits.endIndex, line), let id = Int64(String(digits)), id > 0 else {
                return nil
            }
            return (digits.endIndex, .id(id))
        }
        guard line.count >= at + 5, line[at..<(at + 5)].map({ $0.lowercased() }) == ["m", "e", "m", "o", ":"],
            !isInURL(at, line)
        else { return nil }
        let uuid = line[(at + 5)...].prefix(36)
        let groups = uuid.split(separator: "-", omittingEmptySubsequences: false).map(\.count)
        guard uuid.count == 36, groups == [8, 4, 4, 4, 12],
            uuid.allSatisfy({ $0 == "-" || $0.isASCII && $0.isHexDigit }),
            endsWord(uuid.endIndex, line)
        else { return nil }
        return (uuid.endIndex, .uuid(String(uuid).lowercased()))
    }

    private static func isWordCharacter(_ character: Character) -> Bool {
        character.isLetter || character.isNumber || character == "_"
    }

    private static func endsWord(_ index: Int, _ line: [Character]) -> Bool {
        index == line.count || !isWordCharacter(line[index])
    }

    /// Whether the run without white space before `index` holds `://`.
    private static func isInURL(_ index: Int, _ line: [Character]) -> Bool {
        let run = line[..<index].reversed().prefix { !$0.isWhitespace }.reversed()
        let characters = Array(run)
        return characters.indices.contains { characters[$0...].starts(with: [":", "/", "/"]) }
    }

    /// Whether `index` stands after a `<` opening a tag (a letter, `/` or `!` after it) with
    /// no `>` since.
    private static func isInTag(_ index: Int, _ line: [Character]) -> Bool {
        guard let open = line[..<index].lastIndex(of: "<"), !line[open..<index].contains(">"), open + 1 < index else {
            return false
        }
        return line[open + 1].isLetter || line[open + 1] == "/" || line[open + 1] == "!"
    }

    /// Whether `[label]:` (up to three spaces before it, no `]` in it) is all that stands
    /// before `index`, spaces and tabs aside.
    private static func followsLinkLabel(_ index: Int, _ line: [Character]) -> Bool {
        let head = line[..<index].drop { $0 == " " }
        guard head.first == "[", head.startIndex <= 3 else { return false }
        var label = String(head).unicodeScalars[...]
        while let last = label.last, last == "\t" || last.properties.generalCategory == .spaceSeparator {
            label = label.dropLast()
        }
        let characters = Array(String(label))
        return characters.count >= 3 && characters.suffix(2) == ["]", ":"]
            && !characters.dropFirst().dropLast(2).contains("]")
    }

    /// The code spans of a line: from a run of backticks to the next run of as many, until
    /// a run that none closes.
    private static func codeSpans(_ line: [Character]) -> [Range<Int>] {
        var spans: [Range<Int>] = [], at = 0
        while let open = line[at...].firstIndex(of: "`") {
            let length = line[open...].prefix { $0 == "`" }.count
            var search = open + length
            var close: Int?
            while close == nil, let next = line[search...].firstIndex(of: "`") {
                let run = line[next...].prefix { $0 == "`" }.count
                if run == length { close = next + run } else { search = next + run }
            }
            guard let close else { break }
            spans.append(open..<close)
            at = close
        }
        return spans
    }
}
