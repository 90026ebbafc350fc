import FoundationEssentials
import MemoStore

extension SyncRecord {
    /// Why this record cannot enter a store, or nil: a store that another program wrote may
    /// hold what memo never would (an empty text, an odd uuid, a date in year 300000, a tag
    /// with a space), and a sync must not spread it.
    var problem: String? {
        guard Self.isCanonicalUUID(uuid) else { return "its uuid '\(uuid)' is not an RFC 4122 uuid" }
        guard let live else { return nil }
        do {
            try MemoContent.validate(live.content)
        } catch {
            return error.description
        }
        for date in [live.insertDate] + (live.updateDate.map { [$0] } ?? [])
        where !Timestamp.representable.contains(Timestamp(millisecondsSince1970: date)) {
            return "its date \(date) ms is outside the years 0001 to 9999"
        }
        for tag in live.tags where (try? TagName.normalize(tag.name)) != tag.name {
            return "its tag '\(tag.name)' is not a valid tag name"
        }
        return nil
    }

    /// Lower-case 8-4-4-4-12 hexadecimal, as every memo store writes uuids.
    private static func isCanonicalUUID(_ text: String) -> Bool {
        UUID(uuidString: text)?.uuidString.lowercased() == text
    }
}
