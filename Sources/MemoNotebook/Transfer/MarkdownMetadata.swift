import MemoStore

/// The short form of a memo's metadata comment in Markdown, one line a reader skims past:
/// `<!-- memo u=… i=… e=… t=… n=… v=… l=… c=… -->`, fields apart by spaces, each left out
/// when it has nothing to say. It carries all the JSON form carries (`MarkdownFormat`), and
/// reads back as that JSON object, so an import treats both forms alike:
/// - `u` the uuid; `n` the other names the memo's version and links use (stores, states),
///   comma-separated, referred to by their place (`0`, `1`, …). A uuid is written as its 16
///   bytes in base64url (22 characters), a state's name `~HEX` as `~` and its 16 bytes; any
///   other name as `'` and its percent-encoded text.
/// - `i` the insert date, milliseconds since 1970 in base 36; `e` the update date, as
///   milliseconds after the insert date.
/// - `t` the explicit tags (the text carries the inline ones), comma-separated.
/// - `v` the sync version (`MemoVersion`), seven fields apart by `/`: the text, tags and
///   support versions (`NAME:COUNT` apart by `.`, where `=` names the state of this text and
///   dates and `+` that of these tags, which the reader works out), `textBy:textSeq`, the
///   tags' changes (`TAG:NAME:SEQ`), the change time after the update (or insert) date, and
///   the store that changed it last. A version of another shape goes whole into `s`.
/// - `l` the links, `START:LENGTH:NAME` (no name for a reference to no memo), apart by `.`.
/// - `c` the text, percent-encoded, when the item cannot carry it.
/// Tags, odd names and text are percent-encoded but for ASCII letters, digits, `_` and `-`,
/// so no value holds a space or `>` (which could end the comment early).
enum MarkdownMetadata {
    /// The fields of the short form for a memo, its version's and links' JSON text.
    static func fields(of memo: Memo, carriesText: Bool, version: String?, links: String?) -> String {
        var names = NameTable()
        let inline = Set(TagName.inlineTags(in: memo.content))
        let explicitTags = memo.tags.filter { !inline.contains($0) }
        var fields = ["u=" + Name.encode(memo.uuid), "i=" + String(memo.insertDate.millisecondsSince1970, radix: 36)]
        let lastWritten = memo.updateDate ?? memo.insertDate
        if let updateDate = memo.updateDate {
            fields.append(
                "e=" + String(updateDate.millisecondsSince1970 - memo.insertDate.millisecondsSince1970, radix: 36))
        }
        if !explicitTags.isEmpty { fields.append("t=" + explicitTags.map(Percent.encode).joined(separator: ",")) }
        var tail: [String] = []
        if let version {
            let states = States(
                text: StateDigest.text(
                    content: memo.content, insertDate: memo.insertDate.millisecondsSince1970,
                    updateDate: memo.updateDate?.millisecondsSince1970),
                tags: StateDigest.tags(explicitTags))
            if let compact = compactVersion(
                version, states: states, lastWritten: lastWritten.millisecondsSince1970, names: &names)
            {
                tail.append("v=" + compact)
            } else {
                tail.append("s=" + Percent.encode(version))
            }
        }
        if let links {
            if let compact = compactLinks(links, names: &names) {
                tail.append("l=" + compact)
            } else {
                tail.append("k=" + Percent.encode(links))
            }
        }
        if carriesText { tail.append("c=" + Percent.encode(memo.content)) }
        if !names.names.isEmpty { fields.append("n=" + names.names.map(Name.encode).joined(separator: ",")) }
        return (fields + tail).joined(separator: " ")
    }

    /// The JSON object (as the long form's) of the short form's `fields`, or nil when they
    /// are not the short form; `text` is the item's text, for the state names `=`.
    static func object(ofFields fields: Substring, itemText text: String) -> JSONValue? {
        var values: [Character: String] = [:]
        for field in fields.split(separator: " ") {
            guard field.count >= 2, let key = field.first, field.dropFirst().first == "=", values[key] == nil else {
                return nil
            }
            values[key] = String(field.dropFirst(2))
        }
        guard let uuidField = values["u"], let uuid = Name.decode(uuidField), let insertField = values["i"],
            let insert = Int64(insertField, radix: 36)
        else { return nil }
        let update = values["e"].flatMap { Int64($0, radix: 36) }.map { insert + $0 }
        if values["e"] != nil, update == nil { return nil }
        let names = values["n"].map { $0.split(separator: ",").map { Name.decode(String($0)) } } ?? []
        guard names.allSatisfy({ $0 != nil }) else { return nil }
        let table = names.compactMap { $0 }
        let tags = (values["t"]?.split(separator: ",").map { Percent.decode(String($0)) }) ?? []
        guard tags.allSatisfy({ $0 != nil }) else { return nil }
        let explicitTags = tags.compactMap { $0 }
        var members: [(String, JSONValue)] = [
            ("uuid", .string(uuid)),
            ("insertDate", .string(DisplayTime.iso8601(Timestamp(millisecondsSince1970: insert)))),
            ("updateDate", update.map { .string(DisplayTime.iso8601(Timestamp(millisecondsSince1970: $0))) } ?? .null),
            ("tags", .array(explicitTags.map(JSONValue.string)))
        ]
        var content = text
        if let encoded = values["c"] {
            guard let decoded = Percent.decode(encoded) else { return nil }
            content = decoded
            members.append(("content", .string(decoded)))
        }
        if let version = values["v"] {
            let states = States(
                text: StateDigest.text(content: content, insertDate: insert, updateDate: update),
                tags: StateDigest.tags(explicitTags))
            guard let object = versionObject(version, states: states, lastWritten: update ?? insert, names: table)
            else { return nil }
            members.append(("sync", object))
        } else if let version = values["s"] {
            guard let json = Percent.decode(version), let object = try? JSONValue.parse(json.utf8) else { return nil }
            members.append(("sync", object))
        }
        if let links = values["l"] {
            guard let array = linksArray(links, names: table) else { return nil }
            members.append(("links", array))
        } else if let links = values["k"] {
            guard let json = Percent.decode(links), let array = try? JSONValue.parse(json.utf8) else { return nil }
            members.append(("links", array))
        }
        return .object(members)
    }

    /// The names of the memo's current text and tags, which the reader works out itself.
    private struct States {
        let text: String
        let tags: String
    }

    /// The names the fields refer to by their place.
    private struct NameTable {
        var names: [String] = []

        mutating func reference(_ name: String) -> String {
            if let index = names.firstIndex(of: name) { return String(index) }
            names.append(name)
            return String(names.count - 1)
        }
    }

    // MARK: Versions

    private static func compactVersion(
        _ json: String, states: States, lastWritten: Int64, names: inout NameTable
    ) -> String? {
        guard let version = try? JSONValue.parse(json.utf8),
            let text = vector(version[member: "text"], states: states, names: &names),
            let tags = vector(version[member: "tags"], states: states, names: &names),
            let support = vector(version[member: "support"], states: states, names: &names),
            case .string(let textBy)? = version[member: "textBy"],
            case .integer(let textSeq)? = version[member: "textSeq"],
            case .object(let addedBy)? = version[member: "tagsAddedBy"],
            case .integer(let changedAt)? = version[member: "changedAt"],
            case .string(let changedBy)? = version[member: "changedBy"]
        else { return nil }
        var added: [String] = []
        for (tag, dot) in addedBy {
            guard case .string(let by)? = dot[member: "by"], case .integer(let seq)? = dot[member: "seq"] else {
                return nil
            }
            added.append("\(Percent.encode(tag)):\(names.reference(by)):\(seq)")
        }
        let fields = [
            text, tags, support, "\(names.reference(textBy)):\(textSeq)", added.joined(separator: "."),
            changedAt == lastWritten ? "" : String(changedAt - lastWritten, radix: 36), names.reference(changedBy)
        ]
        return fields.joined(separator: "/")
    }

    private static func vector(_ value: JSONValue?, states: States, names: inout NameTable) -> String? {
        guard case .object(let counts)? = value else { return nil }
        var entries: [String] = []
        for (name, count) in counts {
            guard case .integer(let count) = count else { return nil }
            let reference = name == states.text ? "=" : name == states.tags ? "+" : names.reference(name)
            entries.append("\(reference):\(count)")
        }
        return entries.joined(separator: ".")
    }

    private static func versionObject(_ text: String, states: States, lastWritten: Int64, names: [String]) -> JSONValue?
    {
        let fields = text.split(separator: "/", omittingEmptySubsequences: false).map(String.init)
        guard fields.count == 7,
            let textVector = vectorObject(fields[0], states: states, names: names),
            let tagsVector = vectorObject(fields[1], states: states, names: names),
            let supportVector = vectorObject(fields[2], states: states, names: names)
        else { return nil }
        let textDot = fields[3].split(separator: ":").map(String.init)
        guard textDot.count == 2, let textBy = name(textDot[0], in: names), let textSeq = Int64(textDot[1]),
            let changedBy = name(fields[6], in: names)
        else { return nil }
        var added: [(String, JSONValue)] = []
        for entry in fields[4].split(separator: ".") {
            let parts = entry.split(separator: ":").map(String.init)
            guard parts.count == 3, let tag = Percent.decode(parts[0]), let by = name(parts[1], in: names),
                let seq = Int64(parts[2])
            else { return nil }
            added.append((tag, .object([("by", .string(by)), ("seq", .integer(seq))])))
        }
        let changedAt = fields[5].isEmpty ? lastWritten : Int64(fields[5], radix: 36).map { lastWritten + $0 }
        guard let changedAt else { return nil }
        return .object([
            ("text", textVector), ("tags", tagsVector), ("support", supportVector), ("textBy", .string(textBy)),
            ("textSeq", .integer(textSeq)), ("tagsAddedBy", .object(added)), ("changedAt", .integer(changedAt)),
            ("changedBy", .string(changedBy))
        ])
    }

    private static func vectorObject(_ text: String, states: States, names: [String]) -> JSONValue? {
        var counts: [(String, JSONValue)] = []
        for entry in text.split(separator: ".") {
            let parts = entry.split(separator: ":").map(String.init)
            guard parts.count == 2, let count = Int64(parts[1]) else { return nil }
            let key = parts[0] == "=" ? states.text : parts[0] == "+" ? states.tags : name(parts[0], in: names)
            guard let key else { return nil }
            counts.append((key, .integer(count)))
        }
        return .object(counts)
    }

    private static func name(_ reference: String, in names: [String]) -> String? {
        guard let index = Int(reference), names.indices.contains(index) else { return nil }
        return names[index]
    }

    // MARK: Links

    private static func compactLinks(_ json: String, names: inout NameTable) -> String? {
        guard case .array(let items)? = try? JSONValue.parse(json.utf8) else { return nil }
        var entries: [String] = []
        for item in items {
            guard case .integer(let start)? = item[member: "start"], case .integer(let length)? = item[member: "length"]
            else { return nil }
            switch item[member: "uuid"] {
            case .string(let target)?: entries.append("\(start):\(length):\(names.reference(target))")
            case .null?: entries.append("\(start):\(length)")
            default: return nil
            }
        }
        return entries.joined(separator: ".")
    }

    private static func linksArray(_ text: String, names: [String]) -> JSONValue? {
        var items: [JSONValue] = []
        for entry in text.split(separator: ".") {
            let parts = entry.split(separator: ":").map(String.init)
            guard (2...3).contains(parts.count), let start = Int64(parts[0]), let length = Int64(parts[1]) else {
                return nil
            }
            let target: JSONValue
            if parts.count == 3 {
                guard let uuid = name(parts[2], in: names) else { return nil }
                target = .string(uuid)
            } else {
                target = .null
            }
            items.append(.object([("start", .integer(start)), ("length", .integer(length)), ("uuid", target)]))
        }
        return .array(items)
    }
}

/// A name in the short form: a uuid or a state's name in base64url, anything else quoted.
private enum Name {
    private static let alphabet = Array("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_".utf8)

    static func encode(_ name: String) -> String {
        if UUIDText(name)?.canonical == name, let bytes = bytes(ofHex: name.filter { $0 != "-" }) {
            return base64(bytes)
        }
        if name.first == "~", let bytes = bytes(ofHex: String(name.dropFirst())), hex(bytes) == name.dropFirst() {
            return "~" + base64(bytes)
        }
        return "'" + Percent.encode(name)
    }

    static func decode(_ text: String) -> String? {
        if text.first == "'" { return Percent.decode(String(text.dropFirst())) }
        if text.first == "~" { return bytes(ofBase64: text.dropFirst()).map { "~" + hex($0) } }
        guard let bytes = bytes(ofBase64: Substring(text)) else { return nil }
        let digits = Array(hex(bytes))
        return [0..<8, 8..<12, 12..<16, 16..<20, 20..<32].map { String(digits[$0]) }.joined(separator: "-")
    }

    /// The 16 bytes that 32 hexadecimal digits spell, or nil.
    private static func bytes(ofHex text: String) -> [UInt8]? {
        let values = text.utf8.map { HexDigit.value(of: $0) }
        guard values.count == 32, values.allSatisfy({ $0 != nil }) else { return nil }
        let nibbles = values.compactMap { $0 }
        return stride(from: 0, to: 32, by: 2).map { UInt8(nibbles[$0]) << 4 | UInt8(nibbles[$0 + 1]) }
    }

    private static func hex(_ bytes: [UInt8]) -> String {
        String(decoding: bytes.flatMap { [HexDigit.lowerCase($0 >> 4), HexDigit.lowerCase($0 & 0xF)] }, as: UTF8.self)
    }

    /// 16 bytes as 22 characters (the last holds 2 bits).
    private static func base64(_ bytes: [UInt8]) -> String {
        var bits: UInt32 = 0, count = 0, characters: [UInt8] = []
        for byte in bytes {
            bits = bits << 8 | UInt32(byte)
            count += 8
            while count >= 6 {
                count -= 6
                characters.append(alphabet[Int(bits >> UInt32(count) & 0x3F)])
            }
        }
        if count > 0 { characters.append(alphabet[Int(bits << UInt32(6 - count) & 0x3F)]) }
        return String(decoding: characters, as: UTF8.self)
    }

    private static func bytes(ofBase64 text: Substring) -> [UInt8]? {
        guard text.utf8.count == 22 else { return nil }
        var bits: UInt32 = 0, count = 0, bytes: [UInt8] = []
        for character in text.utf8 {
            guard let value = alphabet.firstIndex(of: character) else { return nil }
            bits = bits << 6 | UInt32(value)
            count += 6
            if count >= 8 {
                count -= 8
                bytes.append(UInt8(truncatingIfNeeded: bits >> UInt32(count)))
            }
        }
        return bytes.count == 16 ? bytes : nil
    }
}

/// Percent-encoding of every byte but ASCII letters, digits, `_` and `-`.
private enum Percent {
    static func encode(_ text: String) -> String {
        var bytes: [UInt8] = []
        for byte in text.utf8 {
            switch byte {
            case UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "A")...UInt8(ascii: "Z"),
                UInt8(ascii: "0")...UInt8(ascii: "9"),
                UInt8(ascii: "_"), UInt8(ascii: "-"):
                bytes.append(byte)
            default:
                bytes += [UInt8(ascii: "%"), HexDigit.lowerCase(byte >> 4), HexDigit.lowerCase(byte & 0xF)]
            }
        }
        return String(decoding: bytes, as: UTF8.self)
    }

    static func decode(_ text: String) -> String? {
        var bytes: [UInt8] = [], iterator = text.utf8.makeIterator()
        while let byte = iterator.next() {
            guard byte == UInt8(ascii: "%") else {
                bytes.append(byte)
                continue
            }
            guard let high = iterator.next().flatMap({ HexDigit.value(of: $0) }),
                let low = iterator.next().flatMap({ HexDigit.value(of: $0) })
            else { return nil }
            bytes.append(UInt8(high) << 4 | UInt8(low))
        }
        return String(validating: bytes, as: UTF8.self)
    }
}
