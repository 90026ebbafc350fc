/// Where `sync` finds the other store: a file here, or a file on another machine reached
/// through ssh, written as scp and git write it (`[USER@]HOST:PATH`, a colon before any
/// slash) or as a URL (`ssh://[USER@]HOST[:PORT]/PATH`). `./name:x` is a file here.
package enum SyncTarget: Equatable, Sendable {
    case file(path: String)
    case ssh(SSHAddress)

    /// Reads the argument of `sync`; a remote address without a host or path, or with a
    /// host or user that ssh would read as an option, is refused.
    package static func parse(_ text: String) throws(CommandError) -> SyncTarget {
        if text.hasPrefix("ssh://") { return .ssh(try SSHAddress(url: text)) }
        guard let colon = SSHAddress.hostEnd(in: text) else { return .file(path: text) }
        return .ssh(try SSHAddress(scpStyle: text, colon: colon))
    }
}

/// A store file on another machine: how to reach it with ssh, and its path there as the
/// remote memo reads it (relative to the login's home folder; `~` expanded there).
package struct SSHAddress: Equatable, Sendable {
    package var user: String?
    package var host: String
    package var port: Int?
    package var path: String
    /// How the user wrote it, for messages.
    package var spelled: String

    /// The ssh destination: `host` or `user@host`.
    package var destination: String {
        user.map { "\($0)@\(host)" } ?? host
    }

    /// Where the host part of `[USER@]HOST:PATH` ends: at the first colon when no slash
    /// comes before it (outside `[…]`, which holds an IPv6 address); nil for a local path.
    static func hostEnd(in text: String) -> String.Index? {
        var inBrackets = false
        for index in text.indices {
            switch text[index] {
            case "[": inBrackets = true
            case "]": inBrackets = false
            case "/": return nil
            case ":" where !inBrackets: return index == text.startIndex ? nil : index
            default: break
            }
        }
        return nil
    }

    init(scpStyle text: String, colon: String.Index) throws(CommandError) {
        spelled = text
        (user, host) = try Self.userAndHost(text[..<colon], in: text)
        port = nil
        path = String(text[text.index(after: colon)...])
        guard !path.isEmpty else { throw .invalid("'\(text)' names no path after the host: write \(text)PATH") }
    }

    init(url text: String) throws(CommandError) {
        spelled = text
        let rest = text.dropFirst("ssh://".count)
        let authority = rest.prefix { $0 != "/" }
        var hostPart = authority[...]
        port = nil
        if let colon = authority.lastIndex(of: ":"), !authority[colon...].contains("]") {
            guard let number = Int(authority[authority.index(after: colon)...]), (1...65535).contains(number) else {
                throw .invalid("'\(text)' has no port number from 1 to 65535 after its last ':'")
            }
            port = number
            hostPart = authority[..<colon]
        }
        (user, host) = try Self.userAndHost(hostPart, in: text)
        var remotePath = Self.percentDecoded(rest.dropFirst(authority.count))
        // ssh://host/~/notes is ~/notes there, as git reads it.
        if remotePath == "/~" || remotePath.hasPrefix("/~/") { remotePath.removeFirst() }
        guard remotePath.count > 1 else { throw .invalid("'\(text)' names no path: write ssh://HOST/PATH") }
        path = remotePath
    }

    private static func userAndHost(_ part: Substring, in text: String) throws(CommandError) -> (String?, String) {
        var user: String?
        var host = part
        if let at = part.lastIndex(of: "@") {
            user = String(part[..<at])
            host = part[part.index(after: at)...]
        }
        if host.hasPrefix("["), host.hasSuffix("]") { host = host.dropFirst().dropLast() }
        guard !host.isEmpty else { throw .invalid("'\(text)' names no host") }
        // ssh would read these as options (`-oProxyCommand=…`), as git refuses them.
        guard !host.hasPrefix("-"), !(user ?? "").hasPrefix("-"), user != "" else {
            throw .invalid("'\(text)': a host or user cannot start with '-' or be empty")
        }
        return (user, String(host))
    }

    /// `%XX` escapes read as the bytes they stand for; text without them unchanged.
    private static func percentDecoded(_ text: Substring) -> String {
        guard text.contains("%") else { return String(text) }
        var bytes: [UInt8] = []
        var utf8 = text.utf8[...]
        while let byte = utf8.popFirst() {
            if byte == UInt8(ascii: "%"), utf8.count >= 2,
                let value = UInt8(String(decoding: utf8.prefix(2), as: UTF8.self), radix: 16)
            {
                bytes.append(value)
                utf8 = utf8.dropFirst(2)
            } else {
                bytes.append(byte)
            }
        }
        return String(decoding: bytes, as: UTF8.self)
    }
}
