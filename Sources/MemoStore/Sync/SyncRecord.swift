import FoundationEssentials

/// One memo as one side of a sync has it (docs/REFERENCE.md, Sync): live, or a tombstone, with the
/// facts that order its versions. Plain data that can cross a pipe; the rules that merge two
/// records (`SyncRecord+Merge`) and that keep one out of a store (`SyncRecord+Validation`)
/// are beside it, so the record and its rules change together.
package struct SyncRecord: Equatable, Sendable, Codable {
    package struct Live: Equatable, Sendable, Codable {
        package var content: String
        package var insertDate: Int64
        package var updateDate: Int64?
        /// Tag names and whether each is inline, by name.
        package var tags: [Tag]
        /// The references the text makes and the memos they name, by where they start; nil
        /// when not known, for a store to read from the text as it writes it.
        package var links: [Link]?

        package init(content: String, insertDate: Int64, updateDate: Int64?, tags: [Tag], links: [Link]? = nil) {
            self.content = content
            self.insertDate = insertDate
            self.updateDate = updateDate
            self.tags = tags
            self.links = links
        }
    }

    /// A reference in a memo's text (`TextReferences`) and the memo it named where the text
    /// was written, by uuid (nil: none). It travels with the text, so `#12` leads to the same
    /// memo in a store where that memo has another id (docs/REFERENCE.md, Links).
    package struct Link: Equatable, Sendable, Codable {
        package var start: Int64
        package var length: Int64
        package var target: String?

        package init(start: Int64, length: Int64, target: String?) {
            self.start = start
            self.length = length
            self.target = target
        }

        /// A memo's links as an export writes them (SQL over a row of `memo`): an array of
        /// `{"start","length","uuid"}` (uuid null for a reference that names no memo), NULL
        /// for a memo without links: one its row says has none (`linked`, schema 13) is not
        /// looked up.
        static let jsonSQL = """
            CASE WHEN memo.linked THEN (SELECT json_group_array(json_object('start', start, 'length', length, 'uuid', target_uuid))
             FROM (SELECT start, length, target_uuid FROM memo_link WHERE memo_id = memo.id ORDER BY start) HAVING count(*) > 0) END
            """
    }

    /// A tag, and for an explicit one the change that added it (its dot: a store and that
    /// store's count in the memo's `tagsVersion`), so a merge tells a tag the other side
    /// removed (it saw the add) from one it never saw. Inline tags follow the text: no dot.
    package struct Tag: Equatable, Sendable, Codable {
        package var name: String
        package var inline: Bool
        package var addedBy: String
        package var addedSeq: Int64

        package init(name: String, inline: Bool, addedBy: String = "", addedSeq: Int64 = 0) {
            self.name = name
            self.inline = inline
            self.addedBy = addedBy
            self.addedSeq = addedSeq
        }
    }

    package var uuid: String
    /// Nil for a deleted memo.
    package var live: Live?
    /// The changes to the text (and, for a tombstone, to the whole memo).
    package var version: VersionVector
    /// The changes to the explicit tags: they merge apart from the text.
    package var tagsVersion: VersionVector
    /// For a live memo, the changes that keep it alive: the latest of each line of changes
    /// made concurrently (a delete that saw them all deletes it). `version` and
    /// `tagsVersion` count all it has seen, deletes of it included.
    package var support = VersionVector()
    /// For a tombstone, the explicit tags the memo had: a tag added before the delete stays
    /// when a concurrent change keeps the memo alive.
    package var deletedTags: [Tag] = []
    /// For a tombstone, the text the memo had: a concurrent change that keeps the memo alive
    /// takes it when it is the newer text.
    package var deletedText: DeletedText?
    /// The change that wrote the text (a store and its change number, or the text's state
    /// name and 1 when it was imported): a version that counts it has seen this text.
    package var textBy: String
    package var textSeq: Int64
    /// The hybrid-logical time and the store of the change that made this state: which of
    /// two concurrent changes is later (the store id breaks ties, the same way everywhere).
    package var changedAt: Int64
    package var changedBy: String

    package init(
        uuid: String, live: Live?, version: VersionVector, tagsVersion: VersionVector = VersionVector(),
        textBy: String = "", textSeq: Int64 = 0, changedAt: Int64, changedBy: String
    ) {
        self.uuid = uuid
        self.live = live
        self.version = version
        self.tagsVersion = tagsVersion
        self.textBy = textBy
        self.textSeq = textSeq
        self.changedAt = changedAt
        self.changedBy = changedBy
    }
}

/// The text a deleted memo had, and the change that wrote it (a tombstone's `text` column,
/// JSON with these keys).
package struct DeletedText: Equatable, Sendable, Codable {
    package var content: String
    package var insertDate: Int64
    package var updateDate: Int64?
    package var textBy: String
    package var textSeq: Int64

    package init(content: String, insertDate: Int64, updateDate: Int64?, textBy: String, textSeq: Int64) {
        self.content = content
        self.insertDate = insertDate
        self.updateDate = updateDate
        self.textBy = textBy
        self.textSeq = textSeq
    }

    /// The text of a tombstone's `text` column; nil for none, or for what is not one
    /// (another program may have written it).
    init?(json: String?) {
        guard let json, let text = try? JSONDecoder().decode(Self.self, from: Data(json.utf8)) else { return nil }
        self = text
    }

    /// The column's text.
    var json: String? {
        (try? JSONEncoder().encode(self)).map { String(decoding: $0, as: UTF8.self) }
    }

    /// The SQL that writes a tombstone's text from a memo image (`HistoryImages.imageSQL`) named
    /// `image`: NULL for a memo no change of a versioned store wrote (it has no text dot).
    static func sql(fromImage image: String) -> String {
        """
        CASE WHEN json_extract(\(image), '$.text_by') <> '' THEN json_object(
            'content', json_extract(\(image), '$.content'), 'insertDate', json_extract(\(image), '$.insert_date'),
            'updateDate', json_extract(\(image), '$.update_date'), 'textBy', json_extract(\(image), '$.text_by'),
            'textSeq', json_extract(\(image), '$.text_seq')) END
        """
    }
}

extension SyncRecord.Tag {
    /// A tombstone's tags: a JSON array of `[name, addedBy, addedSeq]`; what is not that is
    /// left out (another program may have written it).
    static func deleted(json: String) -> [Self] {
        guard let rows = try? JSONDecoder().decode([[DeletedTagField]].self, from: Data(json.utf8)) else { return [] }
        return rows.compactMap { row in
            guard row.count == 3, case .text(let name) = row[0], case .text(let by) = row[1],
                case .number(let seq) = row[2]
            else { return nil }
            return Self(name: name, inline: false, addedBy: by, addedSeq: seq)
        }
    }

    /// A tombstone's tags as its `tags` column holds them.
    static func json(ofDeleted tags: [Self]) -> String {
        guard
            let data = try? JSONEncoder().encode(
                tags.map { [DeletedTagField.text($0.name), .text($0.addedBy), .number($0.addedSeq)] })
        else { return "[]" }
        return String(decoding: data, as: UTF8.self)
    }
}

/// One field of a tombstone's tag: text or an integer.
private enum DeletedTagField: Codable {
    case text(String)
    case number(Int64)

    init(from decoder: any Decoder) throws {
        let value = try decoder.singleValueContainer()
        if let number = try? value.decode(Int64.self) {
            self = .number(number)
        } else {
            self = .text(try value.decode(String.self))
        }
    }

    func encode(to encoder: any Encoder) throws {
        var value = encoder.singleValueContainer()
        switch self {
        case .text(let text): try value.encode(text)
        case .number(let number): try value.encode(number)
        }
    }
}

/// How many changes each store made to one memo: a memo's `version` column, a JSON object
/// of counts by store id. One version is newer than another when it counts at least as many
/// changes from every store; when each counts a change the other does not, the two were
/// made concurrently, without seeing each other.
package struct VersionVector: Equatable, Sendable, Codable {
    package private(set) var counts: [String: Int64]

    package init(_ counts: [String: Int64] = [:]) {
        self.counts = counts
    }

    /// The vector of a `version` column: its members that are numbers (another program may
    /// have written others); anything but an object is empty. Memo writes only integers, so
    /// those are read first, the quick way.
    init(json: String) {
        if let counts = json.utf8.withContiguousStorageIfAvailable(Self.compactCounts) ?? nil {
            self.counts = counts
            return
        }
        let data = Data(json.utf8)
        if let counts = try? Self.decoder.decode([String: Int64].self, from: data) {
            self.counts = counts
        } else {
            counts = ((try? Self.decoder.decode([String: StoredInteger].self, from: data)) ?? [:]).compactMapValues(
                \.value)
        }
    }

    /// One decoder for every vector read: a sync reads one per memo it compares.
    private static let decoder = JSONDecoder()

    /// `{"name":count,...}` as memo and SQLite's JSON functions write a vector (no spaces,
    /// ASCII names without escapes, counts plain integers, each name once), read without a decoder:
    /// `JSONDecoder` was a third of a sync's time. Nil for any other text, which the decoder
    /// reads.
    private static func compactCounts(_ bytes: UnsafeBufferPointer<UInt8>) -> [String: Int64]? {
        guard bytes.count >= 2, bytes.first == UInt8(ascii: "{"), bytes.last == UInt8(ascii: "}") else { return nil }
        var counts: [String: Int64] = [:]
        var index = 1
        let end = bytes.count - 1
        while index < end {
            if !counts.isEmpty {
                guard bytes[index] == UInt8(ascii: ",") else { return nil }
                index += 1
            }
            guard index < end, bytes[index] == UInt8(ascii: "\"") else { return nil }
            let nameStart = index + 1
            guard let nameEnd = bytes[nameStart..<end].firstIndex(of: UInt8(ascii: "\"")),
                !bytes[nameStart..<nameEnd].contains(where: { $0 == UInt8(ascii: "\\") || $0 < 0x20 || $0 >= 0x80 }),
                nameEnd + 1 < end, bytes[nameEnd + 1] == UInt8(ascii: ":")
            else { return nil }
            index = nameEnd + 2
            let isNegative = index < end && bytes[index] == UInt8(ascii: "-")
            if isNegative { index += 1 }
            let digitsStart = index
            while index < end, (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(bytes[index]) { index += 1 }
            let digits = bytes[digitsStart..<index]
            guard !digits.isEmpty, digits.count == 1 || digits.first != UInt8(ascii: "0"), digits.count <= 18 else {
                return nil
            }
            let magnitude = digits.reduce(Int64(0)) { $0 * 10 + Int64($1 - UInt8(ascii: "0")) }
            let name = String(decoding: bytes[nameStart..<nameEnd], as: UTF8.self)
            guard counts.updateValue(isNegative ? -magnitude : magnitude, forKey: name) == nil else { return nil }
        }
        return counts
    }

    /// The column's text, keys in order, so equal vectors are equal text. Written as bytes
    /// into a string of the length it needs, the members taken in pairs (no second look-up of
    /// each name), one alone not sorted: an import writes three a memo, most of one member.
    var json: String {
        let members = counts.count < 2 ? Array(counts) : counts.sorted { $0.key < $1.key }
        // Braces, and each member's quotes, colon, comma and at most 20 characters of count.
        let capacity = members.reduce(2) { $0 + $1.key.utf8.count + 24 }
        return String(unsafeUninitializedCapacity: capacity) { buffer in
            var end = 0
            func write(_ byte: UInt8) {
                buffer[end] = byte
                end += 1
            }
            write(UInt8(ascii: "{"))
            for (index, member) in members.enumerated() {
                if index > 0 { write(UInt8(ascii: ",")) }
                write(UInt8(ascii: "\""))
                var key = member.key
                key.withUTF8 { bytes in // copied whole: a byte at a time was half of the writing
                    guard let base = bytes.baseAddress else { return }
                    (buffer.baseAddress! + end).update(from: base, count: bytes.count)
                    end += bytes.count
                }
                write(UInt8(ascii: "\""))
                write(UInt8(ascii: ":"))
                if member.value < 0 { write(UInt8(ascii: "-")) }
                let magnitude = member.value.magnitude
                var scale: UInt64 = 1
                while magnitude / scale >= 10 { scale *= 10 }
                while scale > 0 {
                    write(UInt8(ascii: "0") + UInt8(magnitude / scale % 10))
                    scale /= 10
                }
            }
            write(UInt8(ascii: "}"))
            return end
        }
    }

    /// Whether this version has seen every change `other` has.
    package func includes(_ other: VersionVector) -> Bool {
        other.counts.allSatisfy { store, count in (counts[store] ?? 0) >= count }
    }

    /// How many changes of `store` this version counts.
    package func count(of store: String) -> Int64 {
        counts[store] ?? 0
    }

    /// The changes of both.
    package func joined(with other: VersionVector) -> VersionVector {
        VersionVector(counts.merging(other.counts, uniquingKeysWith: max))
    }
}

/// A version count as another program may have stored it: an integer, a real cut toward
/// zero, or a boolean as 1 or 0; nil for anything else, so one odd value spoils nothing
/// around it.
private struct StoredInteger: Decodable {
    var value: Int64?

    init(from decoder: any Decoder) throws {
        let number = try decoder.singleValueContainer()
        if let integer = try? number.decode(Int64.self) {
            value = integer
        } else if let real = try? number.decode(Double.self) {
            value = Int64(exactly: real.rounded(.towardZero))
        } else if let flag = try? number.decode(Bool.self) {
            value = flag ? 1 : 0
        }
    }
}
