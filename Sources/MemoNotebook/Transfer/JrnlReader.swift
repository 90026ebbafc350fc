import MemoStore

/// jrnl's JSON export (`jrnl --format json`): an object with `tags` (counts) and `entries`,
/// each `{title, body, date: "YYYY-MM-DD", time: "HH:MM", tags: ["@x"], starred}`, read
/// entry by entry (`JSONArrayReader`). An entry becomes a memo: its title as the first line
/// and its body below, dated on the display time zone's wall clock (jrnl keeps local
/// times), its tags without their `@` or `#`, and `starred` as a tag. jrnl keeps neither ids
/// nor edit times: an entry's uuid is derived from its date, time and title, so importing
/// the export again adds nothing, and an entry whose body was edited in jrnl since leaves
/// its memo as it was (a changed title or date is a new entry).
struct JrnlReader: RecordReader {
    private var entries: JSONArrayReader
    /// The uuids given at the latest entry's moment: jrnl lists entries in time order, so
    /// entries of one date, time and title (a repeated "Morning.") are neighbours, and the
    /// second and later get their place among them in their uuid.
    private var uuidsAtMoment: (moment: Timestamp?, uuids: Set<String>) = (nil, [])

    init(file: ImportFile, displayTime: DisplayTime) {
        entries = JSONArrayReader(file: file, member: "entries") { entry, line throws(CommandError) in
            try Self.record(entry, line: line, displayTime: displayTime)
        }
    }

    var progress: Double? { entries.progress }

    mutating func next() throws(LocatedError) -> ImportRecord? {
        guard var record = try entries.next(), let uuid = record.uuid else { return nil }
        if uuidsAtMoment.moment != record.insertDate { uuidsAtMoment = (record.insertDate, []) }
        var place = 1
        while uuidsAtMoment.uuids.contains(record.uuid ?? "") {
            place += 1
            record.uuid = StableUUID.make(from: "\(uuid)#\(place)")
        }
        uuidsAtMoment.uuids.insert(record.uuid ?? "")
        return record
    }

    private static func record(
        _ entry: JSONValue, line: Int, displayTime: DisplayTime
    ) throws(CommandError) -> ImportRecord {
        guard case .string(let title)? = entry[member: "title"] else {
            throw .invalid("a jrnl entry needs a \"title\" string")
        }
        guard case .string(let date)? = entry[member: "date"],
            case .day(let day)? = try? DateArgument.parse(Word(text: date, isLiteral: true))
        else { throw .invalid("a jrnl entry needs a \"date\" of the form YYYY-MM-DD") }
        var time = ""
        var milliseconds: Int64 = 0
        if case .string(let text)? = entry[member: "time"] {
            guard let value = SourceDate.millisecondsIntoDay(Substring(text)) else {
                throw .invalid("invalid jrnl \"time\" '\(text)': use HH:MM")
            }
            (time, milliseconds) = (text, value)
        }
        var body = ""
        if case .string(let text)? = entry[member: "body"] { body = text }
        body = String(body.reversed().drop(while: \.isWhitespace).reversed())
        var tags: [String] = []
        if case .array(let values)? = entry[member: "tags"] {
            for case .string(let tag) in values {
                let name = tag.first == "@" || tag.first == "#" ? String(tag.dropFirst()) : tag
                if !name.isEmpty { tags.append(name) }
            }
        }
        if case .bool(true)? = entry[member: "starred"] { tags.append("starred") }
        var record = ImportRecord(
            content: [title, body].filter { !$0.isEmpty }.joined(separator: "\n"),
            uuid: StableUUID.make(from: "jrnl:\(date) \(time)\n\(title)"),
            insertDate: displayTime.instant(on: day, atMillisecond: milliseconds), tags: tags, line: line)
        record.namesItsSource = true
        return record
    }
}
