import MemoStore

/// The uuids an import file has named so far: a file that names one memo twice (in the same
/// case or not) is ambiguous about which version it means, so the import fails at the
/// second; so do two notes of a folder with one `id:`, the failure naming both. Kept as
/// 16-byte values in a set: a million records cost about 32 MB (a folder's notes, far
/// fewer, keep their paths too).
struct UUIDsSeen {
    private var uuids: Set<UUIDText> = []
    /// The note that named each uuid.
    private var notes: [UUIDText: String] = [:]

    mutating func insert(_ record: ImportRecord, file: String) throws(LocatedError) {
        guard let text = record.uuid, let uuid = UUIDText(text) else { return }
        if let note = record.file {
            // A note's uuid comes from its `id:` (or path): only an id can repeat.
            guard let earlier = notes.updateValue(note, forKey: uuid) else { return }
            throw LocatedError(
                file: file, line: record.line,
                underlying: CommandError.invalid("the note \(earlier) has the same front matter id"))
        }
        guard uuids.insert(uuid).inserted else {
            throw LocatedError(
                file: file, line: record.line,
                underlying: CommandError.invalid("the uuid \(text) is named by an earlier record of this file"))
        }
    }

    /// Whether an earlier record named `uuid`: its memo is this import's own.
    func contains(_ uuid: String) -> Bool {
        guard let uuid = UUIDText(uuid) else { return false }
        return uuids.contains(uuid) || notes[uuid] != nil
    }
}
