/// The changes a user makes to memos (add, edit, delete, tag, untag): each checks its
/// input (the text, the tag names, that the memos exist), then has `MemoTable` write the
/// rows inside one change that `ChangeRecorder` records. A check that fails leaves the
/// store as it was.
struct MemoEdits {
    let reader: MemoReader
    let links: LinkIndex
    /// The one writer of memo rows.
    let table: MemoTable
    /// Records each change in the history, in the change's transaction.
    let recorder: ChangeRecorder

    /// Inserts a memo, as a change made at `time` (by default its insert date; a back-dated
    /// memo is added now, at an earlier date); inline `@tags` in its text are added to the
    /// draft's tags.
    func insert(_ draft: MemoDraft, at time: Timestamp? = nil) throws(StoreError) -> Memo {
        try MemoContent.validate(draft.content)
        let explicitTags = try Self.normalized(draft.tags)
        let time = time ?? draft.insertDate
        return try recorder.recorded(.add, at: time) {
            let id = try table.insert(
                draft, explicitTags: explicitTags, inlineTags: TagName.inlineTags(in: draft.content),
                facts: recorder.stamp(at: time))
            return try reader.existingMemo(id: id)
        }
    }

    /// Replaces a memo's text and sets its update date, `date`: the change's time. Its insert
    /// date, and so its place in the order, stays (`move` changes it). Inline tags follow the new text;
    /// explicit tags stay. `reading`: how the new text's references are read — a person's
    /// edit is of the text as it reads here (`asReadHere`), a program's of the stored text
    /// (`asWrittenHere`: `memo/update` takes `content` as JSON gives it).
    func updateContent(
        id: Int64, to content: String, reading: ReferenceReading, at date: Timestamp
    ) throws(StoreError) -> Memo {
        try MemoContent.validate(content)
        return try recorder.recorded(.edit, at: date) {
            // The same text again changes nothing: no update date, no history entry, no sync.
            let current = try reader.existingMemo(id: id)
            guard current.content != content else { return current }
            guard try table.updateContent(of: id, to: content, updateDate: date, reading: reading) else {
                throw StoreError.memoNotFound([id])
            }
            return try reader.existingMemo(id: id)
        }
    }

    /// Deletes every memo in `ids`, or none if one of them does not exist; the memos whose
    /// texts referenced them, so the caller can say which references now lead nowhere.
    func delete(
        ids: [Int64], at time: Timestamp
    ) throws(StoreError) -> (ids: [Int64], referrers: [MemoStore.LinkedMemo]) {
        var unique: [Int64] = []
        for id in ids where !unique.contains(id) { unique.append(id) }
        return try recorder.recorded(.delete, at: time) {
            let referrers = try links.referrers(of: unique)
            let missing = try unique.filter { try !table.delete($0) }
            if !missing.isEmpty { throw StoreError.memoNotFound(missing) }
            return (unique, referrers)
        }
    }

    /// Adds tags to a memo; tags it already has are kept as they are.
    func addTags(_ tags: [String], to id: Int64, at time: Timestamp) throws(StoreError) -> Memo {
        let names = try Self.normalized(tags)
        return try recorder.recorded(.tag, at: time) {
            _ = try reader.existingMemo(id: id)
            try table.addTags(names, to: id)
            return try reader.existingMemo(id: id)
        }
    }

    /// Removes tags from a memo, or none if it lacks one of them or its text carries one
    /// (docs/REFERENCE.md, Tags: an inline `@tag` tags the memo; it goes with an edit of the text,
    /// and a sync could not carry its removal).
    func removeTags(_ tags: [String], from id: Int64, at time: Timestamp) throws(StoreError) -> Memo {
        let names = try Self.normalized(tags)
        return try recorder.recorded(.untag, at: time) {
            let inline = Set(TagName.inlineTags(in: try reader.existingMemo(id: id).content))
            if let name = names.first(where: inline.contains) { throw StoreError.tagInText(memo: id, tag: name) }
            for name in names where try !table.removeTag(name, from: id) {
                throw StoreError.tagNotFound(memo: id, tag: name)
            }
            return try reader.existingMemo(id: id)
        }
    }

    /// Makes `tags` the memo's whole set of explicit tags; the inline tags of its text stay
    /// (docs/REFERENCE.md, Tags: they tag the memo while the text carries them).
    func replaceTags(of id: Int64, with tags: [String], at time: Timestamp) throws(StoreError) -> Memo {
        let names = try Self.normalized(tags)
        return try recorder.recorded(.tag, at: time) {
            let inline = TagName.inlineTags(in: try reader.existingMemo(id: id).content)
            try table.replaceTags(of: id, explicit: names.filter { !inline.contains($0) }, inline: inline)
            return try reader.existingMemo(id: id)
        }
    }

    /// `tags` as valid tag names, each once, in the order given: a name that is not valid
    /// refuses the whole change.
    static func normalized(_ tags: [String]) throws(StoreError) -> [String] {
        var names: [String] = []
        for tag in tags {
            let name = try TagName.normalize(tag)
            if !names.contains(name) { names.append(name) }
        }
        return names
    }
}
