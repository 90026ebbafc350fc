import MemoStore

/// The program's exit statuses, the same for every face.
package enum ExitStatus: Int32, Sendable, CaseIterable {
    case success = 0
    /// A command failed: not found, invalid argument, an empty text, a script error, a failed
    /// test; or a one-shot search found nothing.
    case failure = 1
    /// The command line itself is wrong.
    case usage = 2
    /// The store cannot be opened or used: not a store, newer schema, permission, disk full.
    case storeUnusable = 3

    /// What the status means, for `memo --help` and the manual page.
    package var meaning: String {
        switch self {
        case .success: "Success."
        case .failure:
            "A command failed: not found, an invalid argument, an empty text, a script error, a failed test; or a search found nothing."
        case .usage: "The command line is wrong."
        case .storeUnusable: "The store cannot be opened or used: not a store, a newer schema, permission, disk full."
        }
    }

    /// The status an error ends a command with; `usage` only where the command line is
    /// being parsed (one-shot commands), elsewhere a malformed command is a plain failure.
    package static func of(_ error: any Error, commandLine: Bool) -> ExitStatus {
        switch error {
        // An error at a line of a file (a fixture script) is the file's, never the command line's.
        case let error as LocatedError: of(error.underlying, commandLine: false)
        case let error as StoreError where error.isStoreUnusable: .storeUnusable
        case let error as CommandError where error.kind == .usage && commandLine: .usage
        default: .failure
        }
    }

    /// Combines statuses: the most serious wins.
    package func worst(_ other: ExitStatus) -> ExitStatus {
        rawValue >= other.rawValue ? self : other
    }
}
