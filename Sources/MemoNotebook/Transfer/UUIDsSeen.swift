import MemoStore

/// The uuids an import file has named so far: a file that names one memo twice (in the same
/// case or not) is ambiguous about which version it means, so the import fails at the
/// second; so do two notes of a folder with one `id:`. Kept as 16-byte values in a set: a million records cost about 32 MB.
struct UUIDsSeen {
    private var uuids: Set<UUIDText> = []

    mutating func insert(_ record: ImportRecord, file: String) throws(LocatedError) {
        guard let text = record.uuid, let uuid = UUIDText(text) else { return }
        guard uuids.insert(uuid).inserted else {
            // A note's uuid comes from its `id:` (or path): only an id can repeat.
            let message =
                record.file == nil
                ? "the uuid \(text) is named by an earlier record of this file"
                : "an earlier note of the folder has the same front matter id"
            throw LocatedError(file: file, line: record.line, underlying: CommandError.invalid(message))
        }
    }
}
