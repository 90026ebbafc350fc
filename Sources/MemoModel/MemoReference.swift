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
        let facts = ReferenceLine(line, syntax: syntax)
        var index = line.startIndex
        while let start = line[index...].firstIndex(where: { $0 == "#" || $0 == "m" || $0 == "M" }) {
            if let reference = reference(startingAt: start, in: facts, syntax: syntax),
                !facts.isInCode(reference.range.lowerBound)
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
        let facts = ReferenceLine(line, syntax: syntax)
        return isReferenceStart(hash, in: facts, syntax: syntax) && !facts.isInCode(hash)
    }

    /// Whether a `#` at `hash` stands where a style sheet has a colour (`color: #`): what is
    /// typed there is a colour, not a memo to complete.
    package static func isColour(at hash: String.Index, in line: String, syntax: ReferenceSyntax) -> Bool {
        guard syntax.hasHexColours else { return false }
        let end = line[hash...].dropFirst().firstIndex { !$0.isHexDigit } ?? line.endIndex
        return isValue(hash..<end, in: line)
    }

    /// `canStart` but for code spans, which `all` asks once a reference is found.
    private static func isReferenceStart(_ hash: String.Index, in facts: ReferenceLine, syntax: ReferenceSyntax) -> Bool
    {
        let line = facts.text
        let before = hash == line.startIndex ? nil : line[line.index(before: hash)]
        guard before.map({ !isWordCharacter($0) && $0 != "/" && $0 != "&" }) ?? true, !facts.isInURL(hash) else {
            return false
        }
        if syntax.hasTags, facts.isInTag(hash) { return false }
        return !(syntax.isMarkdown && (line[..<hash].hasSuffix("](") || facts.isLinkDefinition(before: hash)))
    }

    private static func reference(
        startingAt start: String.Index, in facts: ReferenceLine, syntax: ReferenceSyntax
    )
        -> Found?
    {
        let line = facts.text
        let before = start == line.startIndex ? nil : line[line.index(before: start)]
        guard before.map({ !isWordCharacter($0) }) ?? true else { return nil }
        let rest = line[start...]
        if rest.first == "#" {
            guard isReferenceStart(start, in: facts, syntax: syntax) else { return nil }
            let digits = rest.dropFirst().prefix { $0.isASCII && $0.isWholeNumber }
            guard !digits.isEmpty, endsWord(at: digits.endIndex, in: line), let id = Int64(digits), id > 0,
                !(syntax.hasHexColours && [3, 4, 6, 8].contains(digits.count)
                    && isValue(start..<digits.endIndex, in: line))
            else { return nil }
            return Found(reference: .id(id), range: start..<digits.endIndex)
        }
        // Only the start is lower-cased: the rest of a long line is not copied at each `m`.
        guard rest.prefix(uuidPrefix.count).lowercased() == uuidPrefix, !facts.isInURL(start) else { return nil }
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
