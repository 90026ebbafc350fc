import MemoStore

/// A Markdown note as zk, nb and Obsidian write it: an optional YAML front matter block
/// (`---` lines around `key: value` lines) and the note's text. Only what an import takes is
/// read: `date:`/`created:`, `tags:` and `id:`; the rest of the block is dropped with it.
struct FrontMatter: Equatable {
    /// The `date:` value, else the `created:` one, as written (quotes removed).
    var date: String?
    /// The `tags:`, a leading `#` or `@` dropped: a YAML list (`- a` lines), a flow list
    /// (`[a, b]`), or words apart by spaces or commas.
    var tags: [String] = []
    /// The note's own id (zk, nb), which names it better than its path.
    var id: String?

    /// The front matter of `text` and the text after it (blank lines after the block, and
    /// trailing white space, dropped); no front matter and the whole text when `text` does
    /// not start with a closed block.
    static func split(_ text: String) -> (FrontMatter, body: String) {
        // Editors on Windows may start the file with a byte-order mark.
        let text = String(TextFile.withoutByteOrderMark(text))
        let lines = MemoContent.lines(of: text)
        guard let first = lines.first, isFence(first, opening: true),
            let end = lines.dropFirst().firstIndex(where: { isFence($0, opening: false) })
        else { return (FrontMatter(), trimmed(Substring(text))) }
        let matter = FrontMatter(lines: lines[1..<end])
        guard let start = lines[(end + 1)...].firstIndex(where: { !$0.allSatisfy(\.isWhitespace) }) else {
            return (matter, "")
        }
        return (matter, trimmed(text[lines[start].startIndex...]))
    }

    /// No front matter.
    init() {}

    private init(lines: ArraySlice<Substring>) {
        var values: [String: String] = [:]
        var lists: [String: [String]] = [:]
        var listKey: String?
        for line in lines {
            let content = line.trimmingSpaces()
            if let key = listKey, line.first == " " || line.first == "-", content.hasPrefix("-") {
                let item = Self.withoutComment(content.dropFirst(), keepingTags: key == "tags")
                lists[key, default: []].append(Self.unquoted(item))
                continue
            }
            listKey = nil
            guard line.first?.isWhitespace == false, let colon = line.firstIndex(of: ":") else { continue }
            let key = line[..<colon].trimmingSpaces().lowercased()
            let value = Self.withoutComment(line[line.index(after: colon)...], keepingTags: key == "tags")
            if value.isEmpty { listKey = key } else if values[key] == nil { values[key] = String(value) }
        }
        date = (values["date"] ?? values["created"]).map { Self.unquoted(Substring($0)) }
        id = values["id"].map { Self.unquoted(Substring($0)) }
        tags = (lists["tags"] ?? values["tags"].map(Self.words) ?? []).compactMap(Self.tagName)
    }

    /// A value without a YAML comment after it (` #` outside quotes) and the spaces around.
    /// Among tags, notes write `#idea` for a tag: there only ` # ` (a `#` and a space) starts
    /// a comment.
    private static func withoutComment(_ value: Substring, keepingTags: Bool) -> Substring {
        var quote: Character?
        var previous: Character = " "
        for index in value.indices {
            let character = value[index]
            if let open = quote {
                if character == open { quote = nil }
            } else if character == "\"" || character == "'" {
                quote = character
            } else if character == "#", previous.isWhitespace {
                let next = value[value.index(after: index)...].first
                if !keepingTags || next == nil || next?.isWhitespace == true {
                    return Substring(value[..<index].trimmingSpaces())
                }
            }
            previous = character
        }
        return Substring(value.trimmingSpaces())
    }

    /// A flow list `[a, "b c"]`, each item one tag; or words apart by commas or spaces, the
    /// whole value or each word quoted or not.
    private static func words(_ value: String) -> [String] {
        guard value.hasPrefix("["), value.hasSuffix("]") else {
            return unquoted(Substring(value)).split(whereSeparator: { $0 == "," || $0.isWhitespace }).map(unquoted)
        }
        var items: [String] = []
        var item = ""
        var quote: Character?
        for character in value.dropFirst().dropLast() {
            if let open = quote {
                if character == open { quote = nil }
            } else if character == "\"" || character == "'" {
                quote = character
            } else if character == "," {
                items.append(unquoted(Substring(item)))
                item = ""
                continue
            }
            item.append(character)
        }
        items.append(unquoted(Substring(item)))
        return items
    }

    /// A tag as written, without its leading `#` or `@`; nil when nothing is left.
    private static func tagName(_ word: String) -> String? {
        let name = word.first == "#" || word.first == "@" ? String(word.dropFirst()) : word
        return name.isEmpty ? nil : name
    }

    /// A YAML scalar without its quotes: `'it''s'` is `it's`, `"a \"b\""` is `a "b"`.
    private static func unquoted(_ value: Substring) -> String {
        let value = value.trimmingSpaces()
        guard value.count >= 2, let quote = value.first, quote == "\"" || quote == "'", value.last == quote else {
            return value
        }
        let inside = String(value.dropFirst().dropLast())
        return quote == "'"
            ? inside.replacing("''", with: "'") : inside.replacing("\\\"", with: "\"").replacing("\\\\", with: "\\")
    }

    /// `---` opens a block; `---` or `...` closes it (trailing spaces and a CR allowed).
    private static func isFence(_ line: Substring, opening: Bool) -> Bool {
        let line = line.trimmingSpaces()
        return line == "---" || (!opening && line == "...")
    }

    /// The text without trailing white space (the final line break a file ends with).
    private static func trimmed(_ text: Substring) -> String {
        String(text[..<(text.lastIndex { !$0.isWhitespace }.map(text.index(after:)) ?? text.startIndex)])
    }
}
