import MemoStore

/// The store's memos by the hash of their text, read once when an import first meets a
/// record without a uuid: such a record that repeats a memo already there (the same file
/// imported again) is found with one lookup, not a search of the store. About 16 bytes a
/// memo: a million memos cost some 30 MB for the length of the import.
struct MemosAlreadyThere {
    /// The first memo with each text hash; the rare others (the same text twice) apart.
    private var firstByHash: [UInt64: Int64] = [:]
    private var othersByHash: [UInt64: [Int64]] = [:]

    init(_ store: MemoStore) throws(StoreError) {
        try store.forEachText { id, text in
            let hash = FNV1a.hash(bytes: text)
            if firstByHash[hash] == nil { firstByHash[hash] = id } else { othersByHash[hash, default: []].append(id) }
        }
    }

    /// A memo of the store that the record repeats (`ImportRecord.repeats`) and that
    /// `isWanted`, if there is one.
    func memo(
        repeatedBy record: ImportRecord, ignoringUpdateDate: Bool, in store: MemoStore,
        where isWanted: (Memo) -> Bool
    ) throws(StoreError) -> Memo? {
        let hash = FNV1a.hash(record.content)
        guard let first = firstByHash[hash] else { return nil }
        for id in [first] + (othersByHash[hash] ?? []) {
            if let memo = try store.memo(id: id), record.repeats(memo, ignoringUpdateDate: ignoringUpdateDate),
                isWanted(memo)
            {
                return memo
            }
        }
        return nil
    }
}

extension ImportRecord {
    /// Whether the record says nothing `memo` does not: the same text and tags and, where
    /// the record carries dates, the same dates. A record without dates is dated when it is
    /// imported, so its text and tags alone tell that it was imported before. A note's
    /// update date is its file's modification time, which a copy of the file changes: it is
    /// left out (`ignoringUpdateDate`) for notes, and for a record the store found no newer.
    func repeats(_ memo: Memo, ignoringUpdateDate: Bool = false) -> Bool {
        guard content == memo.content, insertDate.map({ $0 == memo.insertDate }) ?? true,
            ignoringUpdateDate || updateDate.map({ $0 == memo.updateDate }) ?? true
        else { return false }
        guard let named = try? tags.map({ tag throws(StoreError) in try TagName.normalize(tag) }) else { return false }
        return Set(named + TagName.inlineTags(in: content)) == Set(memo.tags)
    }

    /// Whether the record can be a state of `memo`, whose uuid it names. A memo changes its
    /// insert date only by a move, which is an edit (`edit ID --date`): a record with another
    /// insert date is that memo moved when it was edited later than the memo here was last
    /// written, else another memo that took the same uuid (two scripted runs, a hand-made
    /// file), unless its sync version relates the two. One never edited has only ever had
    /// one text. Nor are two texts written at the same moment two states of one memo (two
    /// scripts that edit the memo of the same first line at the same clock time).
    func canBeAState(of memo: Memo) -> Bool {
        if version != nil { return true }
        if let insertDate, insertDate != memo.insertDate, !isEdited(after: memo) { return false }
        if content != memo.content, updateDate == memo.updateDate { return false }
        return content == memo.content || updateDate != nil || memo.updateDate != nil
    }

    /// Whether the record was edited after `memo` was last written (its update date, else
    /// its insert date), as a move of it elsewhere was.
    private func isEdited(after memo: Memo) -> Bool {
        guard let updateDate else { return false }
        return updateDate > (memo.updateDate ?? memo.insertDate)
    }

    /// The uuid a record gets when its own names another memo here: derived from the
    /// record, so importing it again finds the memo the first import made.
    var uuidOfItsOwn: String {
        StableUUID.make(
            from: "import:\(uuid ?? "")/\(insertDate.map { String($0.millisecondsSince1970) } ?? "")/\(content)")
    }
}
