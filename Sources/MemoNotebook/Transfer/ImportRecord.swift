import Foundation
import MemoStore

/// One memo as an import file describes it, before it meets the store. Only `content` is
/// required; a missing uuid or insert date is supplied by the session.
package struct ImportRecord: Equatable, Sendable {
    package var content: String
    package var uuid: String?
    package var insertDate: Timestamp?
    package var updateDate: Timestamp?
    package var tags: [String]
    /// The line of the file the record starts on, for errors.
    package var line: Int

    package init(content: String, uuid: String? = nil, insertDate: Timestamp? = nil, updateDate: Timestamp? = nil,
                 tags: [String] = [], line: Int) {
        self.content = content
        self.uuid = uuid
        self.insertDate = insertDate
        self.updateDate = updateDate
        self.tags = tags
        self.line = line
    }

    /// A record from a JSON object with SPEC §5's fields (`id` is ignored), or why not.
    init(json object: Any, line: Int) throws(CommandError) {
        guard let fields = object as? [String: Any] else { throw .invalid("a record must be a JSON object") }
        guard let content = fields["content"] as? String else {
            throw .invalid(fields["content"] == nil ? "the record has no \"content\"" : "\"content\" must be a string")
        }
        self.init(content: content, line: line)
        uuid = try Self.optional(fields, "uuid", as: String.self).map(Self.uuid)
        insertDate = try Self.optional(fields, "insertDate", as: String.self).map { text throws(CommandError) in
            try Self.date(text, field: "insertDate")
        }
        updateDate = try Self.optional(fields, "updateDate", as: String.self).map { text throws(CommandError) in
            try Self.date(text, field: "updateDate")
        }
        tags = try Self.optional(fields, "tags", as: [Any].self).map { values throws(CommandError) in
            try values.map { value throws(CommandError) in
                guard let tag = value as? String else { throw .invalid("\"tags\" must be an array of strings") }
                return tag
            }
        } ?? []
    }

    private static func optional<T>(_ fields: [String: Any], _ key: String, as type: T.Type) throws(CommandError) -> T? {
        guard let value = fields[key], !(value is NSNull) else { return nil }
        guard let typed = value as? T else {
            throw .invalid("\"\(key)\" must be \(type == String.self ? "a string" : "an array")")
        }
        return typed
    }

    /// A uuid in RFC 4122 text form, lower-cased as the store keeps them.
    static func uuid(_ text: String) throws(CommandError) -> String {
        guard let uuid = UUID(uuidString: text) else { throw .invalid("invalid uuid '\(text)'") }
        return uuid.uuidString.lowercased()
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
