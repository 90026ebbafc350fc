import Foundation

/// How many changes each store made to one memo (SPEC §4b). One version is newer than
/// another when it counts at least as many changes from every store; when each counts a
/// change the other does not, the two were made concurrently, without seeing each other.
struct VersionVector: Equatable {
    private(set) var counts: [String: Int64]

    init(_ counts: [String: Int64] = [:]) {
        self.counts = counts
    }

    /// The vector of a `version` column: a JSON object of counts. Anything else is empty.
    init(json: String) {
        let object = (try? JSONSerialization.jsonObject(with: Data(json.utf8))) as? [String: Any] ?? [:]
        counts = object.compactMapValues { ($0 as? NSNumber)?.int64Value }
    }

    var json: String {
        "{" + counts.keys.sorted().map { "\"\($0)\":\(counts[$0] ?? 0)" }.joined(separator: ",") + "}"
    }

    /// Whether this version has seen every change `other` has.
    func includes(_ other: VersionVector) -> Bool {
        other.counts.allSatisfy { store, count in (counts[store] ?? 0) >= count }
    }

    /// The changes of both.
    func joined(with other: VersionVector) -> VersionVector {
        VersionVector(counts.merging(other.counts, uniquingKeysWith: max))
    }
}
