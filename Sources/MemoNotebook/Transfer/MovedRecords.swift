import MemoStore

/// The records of an import added under a uuid of their own, their own naming an unrelated
/// memo here (`ImportRecord.uuidOfItsOwn`). In the file that uuid names the record, so the
/// `#ID` links the file's records carry to it follow it to its new uuid, whether they come
/// after it in the file or before (`MemoStore.moveCarriedLinks`). The memos written with
/// carried links are kept as 16-byte uuids, as `UUIDsSeen` keeps the file's.
struct MovedRecords {
    /// Each moved record's new uuid, by the uuid the file names it by.
    private var newUUIDs: [UUIDText: String] = [:]
    /// The memos the import wrote with the links their records carried.
    private var carrying: Set<UUIDText> = []

    /// Notes that the record the file names `old` is added as `new`.
    mutating func move(_ old: String, to new: String) {
        if let old = UUIDText(old) { newUUIDs[old] = new }
    }

    /// `references` with each `#ID` link to a moved record's old uuid leading to its new one
    /// (a `memo:` reference names what its text says).
    func following(_ references: ReferenceReading, in content: String) -> ReferenceReading {
        guard case .carried(var links) = references, !newUUIDs.isEmpty else { return references }
        for index in links.indices {
            guard let target = links[index].target.flatMap(UUIDText.init), let new = newUUIDs[target],
                links[index].start >= 0, content.utf8.dropFirst(Int(links[index].start)).first == UInt8(ascii: "#")
            else { continue }
            links[index].target = new
        }
        return .carried(links)
    }

    /// Notes memo `uuid` written with `references`: links it carried to a record moved later
    /// follow that record (`followMove`).
    mutating func noteWritten(_ uuid: String, references: ReferenceReading) {
        if case .carried = references, let uuid = UUIDText(uuid) { carrying.insert(uuid) }
    }

    /// Makes the links that memos written earlier carried to the record the file names `old`
    /// lead to its new uuid, as part of the import's change made at `time`.
    func followMove(of old: String, in store: MemoStore, at time: Timestamp) throws(StoreError) {
        guard let key = UUIDText(old), let new = newUUIDs[key], !carrying.isEmpty else { return }
        try store.moveCarriedLinks(from: old, to: new, at: time) { uuid in
            UUIDText(uuid).map(carrying.contains) ?? false
        }
    }
}
