/// The first message each side of a sync over a pipe sends, before it reads anything:
/// `{"memo-sync":{"protocol":P,"oldest":O,"program":"memo 1.2.0"}}`, and the server's
/// `"sealed":true|false` too. A side speaks every protocol version from `oldest` to
/// `protocol`; two sides use the highest both speak, and refuse each other when there is
/// none. See docs/SYNC-PROTOCOL.md.
package struct SyncHello: Equatable, Sendable, Codable {
    package var newest: Int
    package var oldest: Int
    /// The program and its version, for messages.
    package var program: String
    /// The server's: whether the store it serves is encrypted (false too when the file does
    /// not exist yet: the sync would create it plain). Nil in a client's hello, and in that
    /// of a memo older than encrypted stores, which serves plain ones only.
    package var sealed: Bool?

    /// The versions this memo speaks: 1, the exchange of `SyncEndpoint` as described in
    /// docs/sync-protocol.md.
    package static func current(program: String) -> SyncHello {
        SyncHello(newest: 1, oldest: 1, program: program)
    }

    package init(newest: Int, oldest: Int, program: String, sealed: Bool? = nil) {
        self.newest = newest
        self.oldest = oldest
        self.program = program
        self.sealed = sealed
    }

    private enum CodingKeys: String, CodingKey {
        case newest = "protocol"
        case oldest
        case program
        case sealed
    }

    /// The highest version both speak, or nil.
    package func agreedVersion(with other: SyncHello) -> Int? {
        let version = min(newest, other.newest)
        return version >= max(oldest, other.oldest) ? version : nil
    }

    /// Why this side, the client's, and `other`, the memo on the other machine, cannot
    /// talk, as the client's user reads it: both versions, and whose memo to upgrade.
    package func refusal(of other: SyncHello) -> String {
        let theirs = "the memo there is \(other.program), sync protocol \(Self.range(other.oldest, other.newest))"
        let mine = "this one is \(program), protocol \(Self.range(oldest, newest))"
        return "\(theirs); \(mine): upgrade memo \(other.newest < oldest ? "there" : "here")"
    }

    private static func range(_ oldest: Int, _ newest: Int) -> String {
        oldest == newest ? "\(newest)" : "\(oldest) to \(newest)"
    }

    /// A line that holds a hello: the JSON object with the single member `memo-sync`.
    package struct Line: Codable {
        package var hello: SyncHello

        package init(_ hello: SyncHello) {
            self.hello = hello
        }

        private enum CodingKeys: String, CodingKey {
            case hello = "memo-sync"
        }
    }
}
