extension SyncRecord {
    /// Why this record cannot enter a store, or nil: a store that another program wrote may
    /// hold what memo never would (an empty text, an odd uuid, a date in year 300000, a tag
    /// with a space), and a sync must not spread it.
    package var problem: String? {
        guard Self.isCanonicalUUID(uuid) else { return "its uuid '\(uuid)' is not an RFC 4122 uuid" }
        if let text = deletedText,
            let problem = Self.problem(content: text.content, dates: [text.insertDate, text.updateDate])
        {
            return "its deleted text: " + problem
        }
        guard let live else { return nil }
        if let problem = Self.problem(content: live.content, dates: [live.insertDate, live.updateDate]) {
            return problem
        }
        for tag in live.tags where (try? TagName.normalize(tag.name)) != tag.name {
            return "its tag '\(tag.name)' is not a valid tag name"
        }
        for link in live.links ?? [] where link.start < 0 || link.length < 0 {
            return "its link at \(link.start) (\(link.length) bytes) is not a place in a text"
        }
        for link in live.links ?? [] where !(link.target.map(Self.isCanonicalUUID) ?? true) {
            return "its link at \(link.start) names '\(link.target ?? "")', not an RFC 4122 uuid"
        }
        return nil
    }

    /// Why a text and its dates cannot enter a store, or nil.
    private static func problem(content: String, dates: [Int64?]) -> String? {
        do {
            try MemoContent.validate(content)
        } catch {
            return error.description
        }
        for date in dates.compactMap({ $0 })
        where !Timestamp.representable.contains(Timestamp(millisecondsSince1970: date)) {
            return "its date \(date) ms is outside the years 0001 to 9999"
        }
        return nil
    }

    /// Lower-case 8-4-4-4-12 hexadecimal, as every memo store writes uuids.
    private static func isCanonicalUUID(_ text: String) -> Bool {
        UUIDText(text)?.canonical == text
    }
}
