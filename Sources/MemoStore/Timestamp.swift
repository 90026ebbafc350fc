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

    package static func < (lhs: Timestamp, rhs: Timestamp) -> Bool {
        lhs.millisecondsSince1970 < rhs.millisecondsSince1970
    }

    package func adding(milliseconds: Int64) -> Timestamp {
        Timestamp(millisecondsSince1970: millisecondsSince1970 + milliseconds)
    }
}
