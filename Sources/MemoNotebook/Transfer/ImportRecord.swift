import FoundationEssentials
import MemoStore

/// One memo as an import file describes it, before it meets the store. Only `content` is
/// required; a missing uuid or insert date is supplied by the session.
package struct ImportRecord: Equatable, Sendable {
    package var content: String
    package var uuid: String?
    package var insertDate: Timestamp?
    package var updateDate: Timestamp?
    package var tags: [String]
    /// The version its source store held (an export's `sync` member), if it is one.
    package var version: MemoVersion?
    /// How its text's references are read (docs/REFERENCE.md, Links): as memo's own export
    /// named them (its `links` member), or, from another program, with a bare `#ID` naming
    /// no memo here.
    package var references: ReferenceReading = .foreign
    /// The line of the file the record starts on, for errors.
    package var line: Int
    /// The file the record came from, when an import reads several (a folder of notes).
    package var file: String?
    /// Whether its uuid is derived from its place in its source (a note's path, a jrnl
    /// entry's date and title, a Core Data row): a memo here with that uuid is then its
    /// memo, whatever it says now.
    package var namesItsSource = false
    /// Whether its uuid comes from its path under the folder imported (a note without an
    /// `id:`): reached through another folder it has another path, so one whose uuid is new
    /// here but which repeats a memo already there (text, tags, insert date) is that memo.
    package var isNamedByItsPath = false
    /// Whether its insert date is its file's modification time, for a note that gave none: it
    /// dates a new memo, but a later modification does not move the memo it made.
    package var isDatedByItsFile = false

    package init(
        content: String, uuid: String? = nil, insertDate: Timestamp? = nil, updateDate: Timestamp? = nil,
        tags: [String] = [], line: Int
    ) {
        self.content = content
        self.uuid = uuid
        self.insertDate = insertDate
        self.updateDate = updateDate
        self.tags = tags
        self.line = line
    }

    /// A record from a JSON object with docs/REFERENCE.md's JSON fields (`id` is ignored), or why
    /// not.
    init(json object: JSONValue, line: Int) throws(CommandError) {
        guard case .object = object else { throw .invalid("a record must be a JSON object") }
        guard case .string(let content)? = object[member: "content"] else {
            throw .invalid(
                object[member: "content"] == nil ? "the record has no \"content\"" : "\"content\" must be a string")
        }
        self.init(content: content, line: line)
        uuid = try Self.string(object, "uuid").map(Self.uuid)
        insertDate = try Self.string(object, "insertDate").map { text throws(CommandError) in
            try Self.date(text, field: "insertDate")
        }
        updateDate = try Self.string(object, "updateDate").map { text throws(CommandError) in
            try Self.date(text, field: "updateDate")
        }
        tags = try Self.strings(object, "tags") ?? []
        // Not the record's text but a hint of how it syncs: one that is not a version is
        // left out, and the store takes only a version that fits the record.
        version = object[member: "sync"].flatMap { MemoVersion(json: $0.serialized) }
        references = try Self.references(object[member: "links"])
    }

    /// How a record's references are read, by its `links` member. memo's export writes one
    /// for every memo whose text makes a reference (`[{"start","length","uuid"}]`, uuid null
    /// for one that names none), so a record without one (or with null) whose text has a
    /// `#ID` is another program's: `foreign`. The store takes only links that are the text's
    /// references, else reads the text as memo's own; a member that is not such a list at
    /// all is a malformed record, as a bad date is: nothing says what its references name.
    private static func references(_ value: JSONValue?) throws(CommandError) -> ReferenceReading {
        guard let value, value != .null else { return .foreign }
        guard case .array(let items) = value else {
            throw .invalid(#""links" must be an array of {"start", "length", "uuid"} objects"#)
        }
        var links: [SyncRecord.Link] = []
        for (index, item) in items.enumerated() {
            links.append(try link(item, number: index + 1))
        }
        return .carried(links)
    }

    /// One member of `links`: where a reference starts and how long it is, in the text's
    /// UTF-8 bytes, and the uuid of the memo it names, or null.
    private static func link(_ item: JSONValue, number: Int) throws(CommandError) -> SyncRecord.Link {
        guard case .object = item else {
            throw .invalid(#""links" item \#(number) must be an object with "start", "length" and "uuid""#)
        }
        var place: [Int64] = []
        for key in ["start", "length"] {
            guard case .integer(let value)? = item[member: key], value >= 0 else {
                throw .invalid(#""links" item \#(number): "\#(key)" must be a whole number of bytes, 0 or more"#)
            }
            place.append(value)
        }
        switch item[member: "uuid"] {
        case .string(let text)?:
            guard let uuid = UUIDText(text) else {
                throw .invalid(#""links" item \#(number): "uuid" must be a uuid or null, not '\#(text)'"#)
            }
            return SyncRecord.Link(start: place[0], length: place[1], target: uuid.canonical)
        case .null?:
            return SyncRecord.Link(start: place[0], length: place[1], target: nil)
        default:
            throw .invalid(#""links" item \#(number): "uuid" must be a uuid or null"#)
        }
    }

    /// The optional string member `key` (null counts as absent).
    private static func string(_ object: JSONValue, _ key: String) throws(CommandError) -> String? {
        switch object[member: key] {
        case nil, .null?: return nil
        case .string(let text)?: return text
        default: throw .invalid("\"\(key)\" must be a string")
        }
    }

    /// The optional member `key` that is an array of strings (null counts as absent).
    private static func strings(_ object: JSONValue, _ key: String) throws(CommandError) -> [String]? {
        switch object[member: key] {
        case nil, .null?: return nil
        case .array(let values)?:
            return try values.map { value throws(CommandError) in
                guard case .string(let text) = value else { throw .invalid("\"\(key)\" must be an array of strings") }
                return text
            }
        default: throw .invalid("\"\(key)\" must be an array")
        }
    }

    /// A uuid in RFC 4122 text form, lower-cased as the store keeps them.
    static func uuid(_ text: String) throws(CommandError) -> String {
        guard let uuid = UUIDText.canonical(text) else { throw .invalid("invalid uuid '\(text)'") }
        return uuid
    }

    private static func date(_ text: String, field: String) throws(CommandError) -> Timestamp {
        guard case .instant(let instant) = try? DateArgument.parse(Word(text: text, isLiteral: true)) else {
            throw .invalid("invalid \"\(field)\" '\(text)': use an ISO 8601 instant such as 2024-03-01T09:30:00.000Z")
        }
        return instant
    }
}

/// Reads the records of an import file one at a time, so a file of a million memos is never
/// held in memory. An error names the line it happened at.
package protocol RecordReader {
    /// The next record, nil at the end, or an error located in the file.
    mutating func next() throws(LocatedError) -> ImportRecord?
    /// How far through its input the reader is, from 0 to 1, when it can tell.
    var progress: Double? { get }
}
