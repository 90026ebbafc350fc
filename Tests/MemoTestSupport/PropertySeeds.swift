import Foundation

/// The seeds a property test runs. `MEMO_PROPERTY_SEEDS` sets the budget of every property
/// test at once: `N` runs seeds 1 to N, `A-B` seeds A to B. Unset, each test runs its own
/// `standard` count. `scripts/test` runs one seed of each (CI), `scripts/test --nightly` many.
package enum PropertySeeds {
    package static func seeds(standard: Int) -> [UInt64] {
        guard let budget = ProcessInfo.processInfo.environment["MEMO_PROPERTY_SEEDS"] else {
            return Array(1...UInt64(standard))
        }
        let bounds = budget.split(separator: "-", omittingEmptySubsequences: false).map { UInt64($0) }
        switch bounds.count {
        case 1: if let count = bounds[0], count > 0 { return Array(1...count) }
        case 2: if let first = bounds[0], let last = bounds[1], first <= last { return Array(first...last) }
        default: break
        }
        // A budget that names no seed would pass every property test without running one.
        preconditionFailure("MEMO_PROPERTY_SEEDS=\(budget): expected a count N (seeds 1 to N) or a range A-B")
    }
}
