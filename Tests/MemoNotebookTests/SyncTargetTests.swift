import Testing

@testable import MemoNotebook

/// How `sync` reads its argument (issue 26): a file here, `[USER@]HOST:PATH` as scp and git
/// read it (a colon before any slash), or an `ssh://` URL.
@Suite("The target of sync")
struct SyncTargetTests {
    func address(_ text: String) throws -> SSHAddress? {
        guard case .ssh(let address) = try SyncTarget.parse(text) else { return nil }
        return address
    }

    @Test(arguments: [
        "notes.sqlite", "./a:b.sqlite", "/mnt/usb/x:y.sqlite", ":notes.sqlite", "~/notes.sqlite", "dir/host:x"
    ])
    func aPathWithoutAColonBeforeASlashIsAFileHere(text: String) throws {
        #expect(try SyncTarget.parse(text) == .file(path: text))
    }

    @Test func scpStyleAddressesNameAUserAHostAndAPath() throws {
        let plain = try #require(try address("box:notes.sqlite"))
        #expect(
            (plain.user, plain.host, plain.port, plain.path, plain.destination) == (
                nil, "box", nil, "notes.sqlite", "box"
            ))
        let withUser = try #require(try address("me@box.example:~/memo/notes.sqlite"))
        #expect(
            (withUser.user, withUser.host, withUser.path, withUser.destination) == (
                "me", "box.example", "~/memo/notes.sqlite", "me@box.example"
            ))
        let colons = try #require(try address("box:/srv/a:b.sqlite"))
        #expect((colons.host, colons.path) == ("box", "/srv/a:b.sqlite"))
        let v6 = try #require(try address("me@[fe80::1]:n.sqlite"))
        #expect((v6.user, v6.host, v6.path, v6.spelled) == ("me", "fe80::1", "n.sqlite", "me@[fe80::1]:n.sqlite"))
    }

    @Test func sshURLsNameAPortAndAnAbsoluteOrHomePath() throws {
        let full = try #require(try address("ssh://me@box:2222/srv/notes.sqlite"))
        #expect((full.user, full.host, full.port, full.path) == ("me", "box", 2222, "/srv/notes.sqlite"))
        let home = try #require(try address("ssh://box/~/notes.sqlite"))
        #expect((home.host, home.port, home.path) == ("box", nil, "~/notes.sqlite"))
        let escaped = try #require(try address("ssh://[::1]:22/tmp/my%20notes.sqlite"))
        #expect((escaped.host, escaped.port, escaped.path) == ("::1", 22, "/tmp/my notes.sqlite"))
    }

    /// ssh reads a host or user that starts with `-` as an option (`-oProxyCommand=…` runs a
    /// command here), so such an address is refused, as git refuses it.
    @Test(arguments: [
        "box:", "-oProxyCommand=touch${IFS}x:y", "me@-box:x", "-me@box:x", "@box:x", "ssh://box", "ssh://box/",
        "ssh://box:0/x", "ssh://box:99999/x", "ssh://box:port/x", "ssh://-oX/x", "ssh:///x", "me@:x"
    ])
    func anAddressSshWouldMisreadIsRefused(text: String) {
        #expect(throws: CommandError.self) { try SyncTarget.parse(text) }
    }

    @Test func theRemotePathIsOneWordOfTheRemoteShell() {
        #expect(SSHConnection.shellQuoted("a b") == "'a b'")
        #expect(SSHConnection.shellQuoted("it's $HOME `x`") == #"'it'\''s $HOME `x`'"#)
    }
}
