/// `tag --rename OLD NEW`: every memo tagged `OLD` is tagged `NEW` instead, in one recorded
/// change. An explicit tag is replaced; an inline `@OLD` is rewritten `@NEW` in the text (by
/// `TagName`'s one inline rule), so the text and its tags stay in step and a sync carries
/// both. A memo that already has `NEW` keeps one `NEW`: the tags merge.
struct TagRenaming {
    let database: Database
    let reader: MemoReader
    /// The one writer of memo rows.
    let table: MemoTable
    let recorder: ChangeRecorder

    /// Renames `old` to `new` on every memo carrying it; how many memos it changed. A tag no
    /// memo carries is refused, and so is a name that is not a valid tag.
    func rename(_ old: String, to new: String, at time: Timestamp) throws(StoreError) -> Int {
        let old = try TagName.normalize(old), new = try TagName.normalize(new)
        return try recorder.recorded(.renameTag, at: time) {
            let carriers = try memosTagged(old)
            guard !carriers.isEmpty else { throw StoreError.refused(.unknownTag(old)) }
            guard old != new else { return 0 }
            for (id, isExplicit) in carriers {
                let content = try reader.existingMemo(id: id).content
                let renamed = TagName.renaming(old, to: new, in: content)
                if renamed != content { _ = try table.updateContent(of: id, to: renamed, updateDate: time) }
                if isExplicit {
                    _ = try table.removeTag(old, from: id)
                    try table.addTags([new], to: id)
                }
            }
            return carriers.count
        }
    }

    /// The memos tagged `name`, each with whether the tag is explicit (it stays without the text).
    private func memosTagged(_ name: String) throws -> [(id: Int64, isExplicit: Bool)] {
        let statement = try database.cached("SELECT memo_id, inline FROM memo_tag WHERE name = ?1 ORDER BY memo_id")
        try statement.bind([.text(name)])
        var found: [(id: Int64, isExplicit: Bool)] = []
        while try statement.step() { found.append((statement.int64(at: 0), statement.int64(at: 1) == 0)) }
        return found
    }
}
