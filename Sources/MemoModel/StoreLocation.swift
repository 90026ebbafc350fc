/// Where a store lives.
package enum StoreLocation: Equatable, Sendable {
    /// A file on disk, kept in WAL mode so readers and a writer never block each other.
    case file(path: String)
    /// A private store that vanishes when closed: a sandbox for scripts, tests and previews.
    case memory

    package var isMemory: Bool { self == .memory }

    /// The path to show people: the file path, or `:memory:`.
    package var displayPath: String {
        switch self {
        case .file(let path): path
        case .memory: ":memory:"
        }
    }
}
