import Glibc

/// Environment variables, looked up by name. The process's own are read one at a time
/// with `getenv`: Foundation's `ProcessInfo.environment` builds a dictionary of all of
/// them first, a measurable part of memo's start-up (BENCHMARKS.md).
package struct Environment: Sendable {
    private let lookup: @Sendable (String) -> String?

    /// This process's environment.
    package static let process = Environment { name in getenv(name).map { String(cString: $0) } }

    /// A fixed set of variables, for tests.
    package init(_ values: [String: String]) {
        lookup = { values[$0] }
    }

    private init(lookup: @escaping @Sendable (String) -> String?) {
        self.lookup = lookup
    }

    package subscript(name: String) -> String? {
        lookup(name)
    }
}
