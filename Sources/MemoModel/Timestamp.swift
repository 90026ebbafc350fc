/// An instant kept to the millisecond, as the store keeps it: milliseconds since
/// 1970-01-01T00:00:00Z. Integral, so times round-trip exactly through SQLite and JSON.
package struct Timestamp: Hashable, Comparable, Sendable {
    package var millisecondsSince1970: Int64

    package init(millisecondsSince1970: Int64) {
        self.millisecondsSince1970 = millisecondsSince1970
    }

    package init(secondsSince1970: Int64) {
        self.millisecondsSince1970 = secondsSince1970 * 1000
    }

    /// The instants memo keeps and shows: years 0001 to 9999, the years every ISO 8601
    /// reader accepts. Anything a store holds outside them came from another program.
    package static let representable =
        Timestamp(millisecondsSince1970: -62_135_596_800_000)...Timestamp(millisecondsSince1970: 253_402_300_799_999)

    /// The latest instant memo keeps, as ISO 8601 writes it: what errors about the range quote.
    package static let lastRepresentableText = "9999-12-31T23:59:59.999Z"

    /// This instant, or the nearest representable one: what is shown of a date that some
    /// other program wrote out of range, so that showing it never overflows.
    package var clampedToRepresentable: Timestamp {
        min(max(self, Self.representable.lowerBound), Self.representable.upperBound)
    }

    package static func < (lhs: Timestamp, rhs: Timestamp) -> Bool {
        lhs.millisecondsSince1970 < rhs.millisecondsSince1970
    }

    package func adding(milliseconds: Int64) -> Timestamp {
        Timestamp(millisecondsSince1970: millisecondsSince1970 + milliseconds)
    }
}
