/// A reference to a memo in any text (docs/REFERENCE.md, References in documents): `#ID`, a `#` at
/// a word start followed by digits and then a word end (`#12`, `(#12)`, `#12,`, but not `a#12`,
/// `#12b` or `#+1`), `memo:UUID`, or a memo's stable handle `memo:8e75e0e6` (`MemoHandle`). A `#` or `memo:` in a URL (`https://x/#12`,
/// `http://h/memo:…`), after `/` or `&` (`&#123;` is a character in markup), a hex colour where
/// style sheets and markup have values (`color: #333`), and, in Markdown, a link's fragment
/// (`[x](#12)`) or what a code span holds, is not one (`ReferenceSyntax`; fenced blocks are the
/// document's to skip).
package enum MemoReference: Hashable, Sendable {
    case id(Int64)
    /// Lower-case, as the store keeps uuids.
    case uuid(String)
    /// The memo whose uuid starts with these digits, when one memo's does.
    case handle(MemoHandle)

    /// A reference and where it stands in its line.
    package struct Found: Equatable, Sendable {
        package let reference: MemoReference
        package let range: Swift.Range<String.Index>
    }

    /// Every reference in `line`, in order, by the rules of `syntax`.
    package static func all(in line: String, syntax: ReferenceSyntax) -> [Found] {
        // Most lines hold neither a `#` nor the `:` of `memo:`: those are passed over as bytes.
        guard line.utf8.contains(where: { $0 == UInt8(ascii: "#") || $0 == UInt8(ascii: ":") }) else { return [] }
        var found: [Found] = []
        // Code spans and tags found once for the line, each reference looked up in them by
        // halving: a line holding thousands of references costs each the same.
        let code = syntax.isMarkdown ? codeSpans(in: line) : []
        let tags = syntax.hasTags ? tagSpans(in: line) : []
        var index = line.startIndex
        while let start = line[index...].firstIndex(where: { $0 == "#" || $0 == "m" || $0 == "M" }) {
            if let reference = reference(startingAt: start, in: line, syntax: syntax, tags: tags),
                !Self.index(reference.range.lowerBound, isIn: code)
            {
                found.append(reference)
                index = reference.range.upperBound
            } else {
                index = line.index(after: start)
            }
        }
        return found
    }

    /// The reference of `found` (a line's) under `cursor`, or right before it (the cursor
    /// just past its end).
    package static func at(_ cursor: String.Index, among found: [Found]) -> Found? {
        found.first { $0.range.contains(cursor) || $0.range.upperBound == cursor }
    }

    /// How a missing memo is named: `#99`, or `with uuid …`.
    package var missingName: String {
        switch self {
        case .id(let id): "#\(id)"
        case .uuid(let uuid): "with uuid \(uuid)"
        case .handle(let handle): "\(handle)"
        }
    }

    /// What starts a uuid or a handle.
    private static let uuidPrefix = "memo:"

    /// Whether a `#` at `hash` can begin a reference, whatever follows it: at a word start,
    /// and not in a URL, after `/` or `&`, in a Markdown link's fragment or code span.
    /// Completion after `#` asks too, so it offers memos only where they would be references.
    package static func canStart(at hash: String.Index, in line: String, syntax: ReferenceSyntax) -> Bool {
        isReferenceStart(hash, in: line, syntax: syntax, tags: syntax.hasTags ? tagSpans(in: line) : [])
            && !(syntax.isMarkdown && index(hash, isIn: codeSpans(in: line)))
    }

    /// Whether a `#` at `hash` stands where a style sheet has a colour (`color: #`): what is
    /// typed there is a colour, not a memo to complete.
    package static func isColour(at hash: String.Index, in line: String, syntax: ReferenceSyntax) -> Bool {
        guard syntax.hasHexColours else { return false }
        let end = line[hash...].dropFirst().firstIndex { !$0.isHexDigit } ?? line.endIndex
        return isValue(hash..<end, in: line)
    }

    /// `canStart` but for code spans, which `all` finds once for the whole line, as it does
    /// the line's `tags` (`tagSpans`).
    private static func isReferenceStart(
        _ hash: String.Index, in line: String, syntax: ReferenceSyntax, tags: [Swift.Range<String.Index>]
    ) -> Bool {
        let before = hash == line.startIndex ? nil : line[line.index(before: hash)]
        guard before.map({ !isWordCharacter($0) && $0 != "/" && $0 != "&" }) ?? true, !isInURL(hash, in: line) else {
            return false
        }
        if index(hash, isIn: tags) { return false }
        return !(syntax.isMarkdown && (follows("](", at: hash, in: line) || isLinkDefinition(before: hash, in: line)))
    }

    /// Whether `text` stands right before `index`: looked at from `index` back, so a line with
    /// thousands of references costs each of them the same.
    private static func follows(_ text: String, at index: String.Index, in line: String) -> Bool {
        var index = index
        for character in text.reversed() {
            guard index > line.startIndex else { return false }
            index = line.index(before: index)
            if line[index] != character { return false }
        }
        return true
    }

    /// The tags of markup on a line: from a `<` that opens one (`<a`, `</a`, `<!`) to the
    /// next `>` or `<`, or to the end of the line.
    private static func tagSpans(in line: String) -> [Swift.Range<String.Index>] {
        var spans: [Swift.Range<String.Index>] = []
        var index = line.startIndex
        while let open = line[index...].firstIndex(of: "<") {
            let next = line.index(after: open)
            guard next < line.endIndex, line[next].isLetter || line[next] == "/" || line[next] == "!" else {
                index = next
                continue
            }
            let end = line[next...].firstIndex { $0 == ">" || $0 == "<" } ?? line.endIndex
            spans.append(next..<end)
            guard end < line.endIndex else { break }
            index = line[end] == "<" ? end : line.index(after: end)
        }
        return spans
    }

    /// Whether `index` is in one of `spans` (in order, not overlapping), found by halving.
    private static func index(_ index: String.Index, isIn spans: [Swift.Range<String.Index>]) -> Bool {
        var low = 0, high = spans.count
        while low < high {
            let middle = (low + high) / 2
            if spans[middle].upperBound <= index { low = middle + 1 } else { high = middle }
        }
        return low < spans.count && spans[low].contains(index)
    }

    /// Whether what comes before `index` is a Markdown link definition's label: `[x]: #12`
    /// defines a link to the fragment `#12`.
    private static func isLinkDefinition(before index: String.Index, in line: String) -> Bool {
        let head = line[..<index].drop { $0 == " " }
        guard head.first == "[", line.distance(from: line.startIndex, to: head.startIndex) <= 3 else { return false }
        let label = head.trimmingSpaces()
        return label.hasSuffix("]:") && !label.dropFirst().dropLast(2).contains("]")
    }

    private static func reference(
        startingAt start: String.Index, in line: String, syntax: ReferenceSyntax, tags: [Swift.Range<String.Index>]
    ) -> Found? {
        let before = start == line.startIndex ? nil : line[line.index(before: start)]
        guard before.map({ !isWordCharacter($0) }) ?? true else { return nil }
        let rest = line[start...]
        if rest.first == "#" {
            guard isReferenceStart(start, in: line, syntax: syntax, tags: tags) else { return nil }
            let digits = rest.dropFirst().prefix { $0.isASCII && $0.isWholeNumber }
            guard !digits.isEmpty, endsWord(at: digits.endIndex, in: line), let id = Int64(digits), id > 0,
                !(syntax.hasHexColours && [3, 4, 6, 8].contains(digits.count)
                    && isValue(start..<digits.endIndex, in: line))
            else { return nil }
            return Found(reference: .id(id), range: start..<digits.endIndex)
        }
        guard rest.prefix(uuidPrefix.count).lowercased() == uuidPrefix, !isInURL(start, in: line) else { return nil }
        let name = rest.dropFirst(uuidPrefix.count)
        let uuid = name.prefix(36)
        if isUUID(uuid), endsWord(at: uuid.endIndex, in: line) {
            return Found(reference: .uuid(uuid.lowercased()), range: start..<uuid.endIndex)
        }
        let digits = name.prefix { $0.isASCII && $0.isHexDigit }
        guard endsWord(at: digits.endIndex, in: line) else { return nil }
        if digits.count == 32 {
            return Found(reference: .uuid(MemoHandle.dashed(digits)), range: start..<digits.endIndex)
        }
        guard let handle = MemoHandle(digits: digits) else { return nil }
        return Found(reference: .handle(handle), range: start..<digits.endIndex)
    }

    /// Whether `range` stands where a style sheet or markup has a value, so `#333` there is a
    /// colour: after `:`, `=`, a quote, `(` or `,`, or before `;`, a quote, `)`, `,`, `!` or
    /// `}` (spaces between), as in `color: #333`, `fill="#333"`, `1px solid #333;`. In text
    /// and comments (`see #333 for why`) it is a reference.
    private static func isValue(_ range: Swift.Range<String.Index>, in line: String) -> Bool {
        let before = line[..<range.lowerBound].last { $0 != " " && $0 != "\t" }
        let after = line[range.upperBound...].first { $0 != " " && $0 != "\t" }
        return before.map { ":=\"'(,".contains($0) } ?? false || after.map { ";\"')},!".contains($0) } ?? false
    }

    /// Whether `index` stands in a URL: the run of text around it without white space holds
    /// `://` before it.
    private static func isInURL(_ index: String.Index, in line: String) -> Bool {
        let tokenStart = line[..<index].lastIndex(where: \.isWhitespace).map(line.index(after:)) ?? line.startIndex
        return line[tokenStart..<index].contains("://")
    }

    /// The code spans of a Markdown line: from a run of backticks to the next run of as many.
    private static func codeSpans(in line: String) -> [Swift.Range<String.Index>] {
        var spans: [Swift.Range<String.Index>] = []
        var index = line.startIndex
        while let open = line[index...].firstIndex(of: "`") {
            let run = line[open...].prefix { $0 == "`" }
            var search = run.endIndex
            var closed: String.Index?
            while let next = line[search...].firstIndex(of: "`") {
                let closing = line[next...].prefix { $0 == "`" }
                if closing.count == run.count {
                    closed = closing.endIndex
                    break
                }
                search = closing.endIndex
            }
            guard let end = closed else { break }
            spans.append(open..<end)
            index = end
        }
        return spans
    }

    /// Letters, digits and `_` make words; anything else (space, punctuation) bounds them.
    package static func isWordCharacter(_ character: Character) -> Bool {
        character.isLetter || character.isNumber || character == "_"
    }

    private static func endsWord(at index: String.Index, in line: String) -> Bool {
        index == line.endIndex || !isWordCharacter(line[index])
    }

    /// `xxxxxxxx-xxxx-xxxx-xxxx-xxxxxxxxxxxx` in hexadecimal digits.
    private static func isUUID(_ text: Substring) -> Bool {
        let groups = text.split(separator: "-", omittingEmptySubsequences: false)
        return text.count == 36 && groups.map(\.count) == [8, 4, 4, 4, 12]
            && groups.allSatisfy { $0.allSatisfy { $0.isASCII && $0.isHexDigit } }
    }
}
