import MemoNotebook
import MemoStore

/// A reference to a memo in any text (SPEC §8): `#ID`, a `#` at a word start followed by
/// digits and then a word end (`#12`, `(#12)`, `#12,`, but not `a#12`, `#12b` or `#+1`), or
/// `memo:UUID`.
enum MemoReference: Equatable {
    case id(Int64)
    /// Lower-case, as the store keeps uuids.
    case uuid(String)

    /// A reference and where it stands in its line.
    struct Found: Equatable {
        let reference: MemoReference
        let range: Swift.Range<String.Index>
    }

    /// Every reference in `line`, in order.
    static func all(in line: String) -> [Found] {
        var found: [Found] = []
        var index = line.startIndex
        while index < line.endIndex {
            if let reference = reference(startingAt: index, in: line) {
                found.append(reference)
                index = reference.range.upperBound
            } else {
                index = line.index(after: index)
            }
        }
        return found
    }

    /// The reference under `cursor`, or right before it (the cursor just past its end).
    static func at(_ cursor: String.Index, in line: String) -> Found? {
        all(in: line).first { $0.range.contains(cursor) || $0.range.upperBound == cursor }
    }

    /// The memo it names in `notebook`, or nil when there is none.
    func memo(in notebook: Notebook) throws(StoreError) -> Memo? {
        switch self {
        case .id(let id): try notebook.memo(id: id)
        case .uuid(let uuid): try notebook.memo(uuid: uuid)
        }
    }

    /// How a missing memo is named: `#99`, or `with uuid …`.
    var missingName: String {
        switch self {
        case .id(let id): "#\(id)"
        case .uuid(let uuid): "with uuid \(uuid)"
        }
    }

    private static let uuidPrefix = "memo:"

    private static func reference(startingAt start: String.Index, in line: String) -> Found? {
        guard start == line.startIndex || !isWordCharacter(line[line.index(before: start)]) else { return nil }
        let rest = line[start...]
        if rest.first == "#" {
            let digits = rest.dropFirst().prefix { $0.isASCII && $0.isWholeNumber }
            guard !digits.isEmpty, endsWord(at: digits.endIndex, in: line), let id = Int64(digits), id > 0 else { return nil }
            return Found(reference: .id(id), range: start..<digits.endIndex)
        }
        guard rest.lowercased().hasPrefix(uuidPrefix) else { return nil }
        let uuid = rest.dropFirst(uuidPrefix.count).prefix(36)
        guard isUUID(uuid), endsWord(at: uuid.endIndex, in: line) else { return nil }
        return Found(reference: .uuid(uuid.lowercased()), range: start..<uuid.endIndex)
    }

    /// Letters, digits and `_` make words; anything else (space, punctuation) bounds them.
    static func isWordCharacter(_ character: Character) -> Bool {
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
