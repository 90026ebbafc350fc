import FoundationEssentials
import MemoStore

/// A JSON value with object keys kept in the order written, so output is stable and reads
/// in the order docs/REFERENCE.md, JSON shows (`id`, `uuid`, `content`, …). It is also what memo
/// reads JSON into (import records, through `JSONDecoder`), where a number may have a fraction.
package enum JSONValue: Equatable, Sendable {
    case null
    case bool(Bool)
    case integer(Int64)
    /// A number that is not a 64-bit integer; memo writes none of its own.
    case number(Double)
    case string(String)
    case array([JSONValue])
    case object([(String, JSONValue)])

    package static func == (lhs: JSONValue, rhs: JSONValue) -> Bool {
        switch (lhs, rhs) {
        case (.null, .null): true
        case (.bool(let a), .bool(let b)): a == b
        case (.integer(let a), .integer(let b)): a == b
        case (.number(let a), .number(let b)): a == b
        case (.string(let a), .string(let b)): a == b
        case (.array(let a), .array(let b)): a == b
        case (.object(let a), .object(let b)): a.map(\.0) == b.map(\.0) && a.map(\.1) == b.map(\.1)
        default: false
        }
    }

    /// Compact JSON text.
    package var serialized: String {
        var bytes: [UInt8] = []
        write(to: &bytes)
        return String(decoding: bytes, as: UTF8.self)
    }

    /// Appends the compact JSON text as UTF-8 bytes: listing a million memos as JSON writes
    /// every byte of them, so this works on bytes rather than on Unicode scalars.
    private func write(to bytes: inout [UInt8]) {
        switch self {
        case .null: bytes += Self.nullBytes
        case .bool(let value): bytes += value ? Self.trueBytes : Self.falseBytes
        case .integer(let value): bytes += String(value).utf8
        case .number(let value): bytes += (value.isFinite ? String(value) : "null").utf8
        case .string(let value): Self.appendString(value.utf8, to: &bytes)
        case .array(let values):
            bytes.append(UInt8(ascii: "["))
            for (index, value) in values.enumerated() {
                if index > 0 { bytes.append(UInt8(ascii: ",")) }
                value.write(to: &bytes)
            }
            bytes.append(UInt8(ascii: "]"))
        case .object(let members):
            bytes.append(UInt8(ascii: "{"))
            for (index, (key, value)) in members.enumerated() {
                if index > 0 { bytes.append(UInt8(ascii: ",")) }
                Self.appendString(key.utf8, to: &bytes)
                bytes.append(UInt8(ascii: ":"))
                value.write(to: &bytes)
            }
            bytes.append(UInt8(ascii: "}"))
        }
    }

    /// The member `key` of an object; nil for a missing member or a value that is no object.
    package subscript(member key: String) -> JSONValue? {
        guard case .object(let members) = self else { return nil }
        return members.last { $0.0 == key }?.1
    }

    private static let nullBytes = Array("null".utf8), trueBytes = Array("true".utf8), falseBytes = Array("false".utf8)
    private static let hexDigits = Array("0123456789abcdef".utf8)

    /// A JSON string: `"` and `\\` escaped, control characters as `\\n`, `\\r`, `\\t` or
    /// `\\u00XX`. Every byte that needs escaping is ASCII, so UTF-8 is copied through as is.
    static func appendString(_ utf8: some Collection<UInt8>, to bytes: inout [UInt8]) {
        bytes.append(UInt8(ascii: "\""))
        if !utf8.contains(where: needsEscape) {
            bytes += utf8
        } else {
            for byte in utf8 { appendEscaping(byte, to: &bytes) }
        }
        bytes.append(UInt8(ascii: "\""))
    }

    /// The same for bytes in place (a row's uuid, text and tags, which an export writes for
    /// every memo): runs that need no escape are found eight bytes at a time and copied whole.
    static func appendString(_ utf8: UnsafeRawBufferPointer, to bytes: inout [UInt8]) {
        bytes.append(UInt8(ascii: "\""))
        var runStart = 0, index = 0
        while index < utf8.count {
            if index + 8 <= utf8.count,
                !anyNeedsEscape(utf8.loadUnaligned(fromByteOffset: index, as: UInt64.self))
            {
                index += 8
                continue
            }
            if needsEscape(utf8[index]) {
                bytes += UnsafeRawBufferPointer(rebasing: utf8[runStart..<index])
                appendEscaping(utf8[index], to: &bytes)
                runStart = index + 1
            }
            index += 1
        }
        bytes += UnsafeRawBufferPointer(rebasing: utf8[runStart...])
        bytes.append(UInt8(ascii: "\""))
    }

    private static func appendEscaping(_ byte: UInt8, to bytes: inout [UInt8]) {
        switch byte {
        case UInt8(ascii: "\""), UInt8(ascii: "\\"): bytes += [UInt8(ascii: "\\"), byte]
        case UInt8(ascii: "\n"): bytes += [UInt8(ascii: "\\"), UInt8(ascii: "n")]
        case UInt8(ascii: "\r"): bytes += [UInt8(ascii: "\\"), UInt8(ascii: "r")]
        case UInt8(ascii: "\t"): bytes += [UInt8(ascii: "\\"), UInt8(ascii: "t")]
        case ..<0x20: bytes += Array("\\u00".utf8) + [hexDigits[Int(byte >> 4)], hexDigits[Int(byte & 0xF)]]
        default: bytes.append(byte)
        }
    }

    private static func needsEscape(_ byte: UInt8) -> Bool {
        byte < 0x20 || byte == UInt8(ascii: "\"") || byte == UInt8(ascii: "\\")
    }

    /// Whether one of eight bytes needs escaping in a JSON string: below 0x20, `"` or `\\`,
    /// the bytes that also end a run of plain bytes when a string is read (`FlatRecordParser`).
    static func anyNeedsEscape(_ word: UInt64) -> Bool {
        ByteWord.hasByte(below: 0x20, in: word) || ByteWord.hasByte(UInt8(ascii: "\""), in: word)
            || ByteWord.hasByte(UInt8(ascii: "\\"), in: word)
    }
}

extension JSONValue: Decodable {
    /// Reads any JSON value, trying the common kinds first: an import record is an object
    /// of strings, so most values are read at the first try. An object's members are in their
    /// names' order.
    package init(from decoder: Decoder) throws {
        let value = try decoder.singleValueContainer()
        if value.decodeNil() {
            self = .null
        } else if let text = try? value.decode(String.self) {
            self = .string(text)
        } else if let members = try? decoder.container(keyedBy: MemberKey.self) {
            // In their names' order: the decoder keeps no order (a dictionary's, which differs
            // from one process to the next), and what is written from these members must not.
            let keys = members.allKeys.sorted { $0.stringValue < $1.stringValue }
            self = .object(try keys.map { ($0.stringValue, try members.decode(JSONValue.self, forKey: $0)) })
        } else if let elements = try? value.decode([JSONValue].self) {
            self = .array(elements)
        } else if let integer = try? value.decode(Int64.self) {
            self = .integer(integer)
        } else if let flag = try? value.decode(Bool.self) {
            self = .bool(flag)
        } else {
            self = .number(try value.decode(Double.self))
        }
    }

    /// Any key of an object.
    private struct MemberKey: CodingKey {
        let stringValue: String
        var intValue: Int? { nil }

        init(stringValue: String) {
            self.stringValue = stringValue
        }

        init?(intValue: Int) {
            nil
        }
    }

    /// Reads a JSON text whole, or throws when it is not valid JSON.
    package static func parse(_ bytes: some Sequence<UInt8>) throws -> JSONValue {
        try JSONDecoder().decode(JSONValue.self, from: Data(bytes))
    }
}
