import Foundation
import MemoNotebookTestSupport
import MemoTestSupport
import Testing

@testable import MemoNotebook
@testable import MemoStore
@testable import MemoSync

/// `sync` and encrypted ("sealed") stores: from a sealed store, a plain peer (or a new one,
/// created plain) is asked about on a terminal and refused elsewhere unless
/// `--allow-plaintext`; two sealed stores stay sealed; the remote half's hello says whether
/// its store is sealed before it is opened.
extension SyncTests {
    /// Every sealed store of these tests opens with this passphrase.
    static func usePassphrase() {
        PassphraseSource.use(
            PassphraseSource { _ throws(StoreError) in
                let text = Array("correct horse battery staple".utf8)
                guard let secret = SecretBytes(count: text.count) else { return nil }
                secret.withUnsafeMutableBytes { $0.copyBytes(from: text) }
                return secret
            })
    }

    /// A sealed store file `name` holding the memo `text`, closed.
    func sealedStore(_ name: String, holding text: String) throws {
        Self.usePassphrase()
        do {
            let plain = try store(name)
            try plain.run("add \(text)")
        }
        _ = try MemoStore.encrypt(fileAt: path(name))
        #expect(isSealed(name))
    }

    func isSealed(_ name: String) -> Bool {
        (try? Data(contentsOf: URL(fileURLWithPath: path(name))).prefix(8)) == Data("memoSEAL".utf8)
    }

    func bytes(_ name: String) -> Data? {
        try? Data(contentsOf: URL(fileURLWithPath: path(name)))
    }

    /// No one to ask (a script, the server, piped input): refused, and neither a plain store
    /// nor a missing one is touched; `--allow-plaintext` syncs.
    @Test func aSealedStoreDoesNotSyncIntoAPlainOneUnlessAllowed() throws {
        try sealedStore("sealed.sqlite", holding: "private words")
        try store("plain.sqlite").run("add public words")
        let plainBefore = bytes("plain.sqlite")
        let sealed = try store("sealed.sqlite")
        #expect(sealed.notebook.confirmation == nil)
        for peer in ["plain.sqlite", "new.sqlite"] {
            #expect(throws: StoreError.refused(.plaintextSync(path: path(peer)))) {
                try sealed.run("sync \(path(peer))")
            }
        }
        #expect(bytes("plain.sqlite") == plainBefore)
        #expect(!FileManager.default.fileExists(atPath: path("new.sqlite")))
        #expect(
            try sealed.run("sync \(path("plain.sqlite")) --allow-plaintext").hasSuffix(": 1 memo sent, 1 received\n"))
        #expect(
            try sealed.run("sync --allow-plaintext \(path("new.sqlite"))").hasSuffix(": 2 memos sent, 0 received\n"))
        #expect(isSealed("sealed.sqlite") && !isSealed("plain.sqlite") && !isSealed("new.sqlite"))
        #expect(try texts(store("new.sqlite")) == ["private words", "public words"])
    }

    /// A person is asked once; "no" leaves the other store as it was (a new one is not
    /// created), "yes" syncs.
    @Test func aPersonIsAskedBeforeASealedStoreSyncsIntoAPlainOne() throws {
        try sealedStore("sealed.sqlite", holding: "private words")
        let sealed = try store("sealed.sqlite")
        var questions: [String] = [], answer = false
        sealed.notebook.confirmation = { question in
            questions.append(question)
            return answer
        }
        #expect(try sealed.run("sync \(path("new.sqlite"))") == "nothing synced\n")
        #expect(questions == [Notebook.plaintextQuestion])
        #expect(questions[0].contains("the other store is not encrypted") && questions[0].hasSuffix("[y/N] "))
        #expect(!FileManager.default.fileExists(atPath: path("new.sqlite")))
        answer = true
        #expect(try sealed.run("sync \(path("new.sqlite"))").hasSuffix(": 1 memo sent, 0 received\n"))
        #expect(questions.count == 2)
        #expect(try texts(store("new.sqlite")) == ["private words"])
        // Given the option, nothing is asked.
        try sealed.run("sync \(path("new.sqlite")) --allow-plaintext")
        #expect(questions.count == 2)
    }

    /// From a plain store to a sealed one nothing is asked, and the sealed one stays sealed;
    /// two sealed stores sync and stay sealed, each opened in this process with its own lock.
    @Test func syncsWithASealedPeerKeepItSealed() throws {
        try sealedStore("a.sqlite", holding: "from a")
        try sealedStore("b.sqlite", holding: "from b")
        let plain = try store("plain.sqlite")
        try plain.run("add from plain")
        plain.notebook.confirmation = { _ in
            Issue.record("asked")
            return false
        }
        #expect(try plain.run("sync \(path("b.sqlite"))").hasSuffix(": 1 memo sent, 1 received\n"))
        #expect(isSealed("b.sqlite") && !isSealed("plain.sqlite"))
        let a = try store("a.sqlite")
        a.notebook.confirmation = plain.notebook.confirmation
        #expect(try a.run("sync \(path("b.sqlite"))").hasSuffix(": 1 memo sent, 2 received\n"))
        #expect(isSealed("a.sqlite") && isSealed("b.sqlite"))
        #expect(try texts(a) == ["from a", "from b", "from plain"])
        #expect(try texts(store("b.sqlite")) == ["from a", "from b", "from plain"])
    }

    /// A sealed store is held by the process that has it open (a lock another opener waits
    /// for): a sync with its own file, by any name, is refused before it is opened a second
    /// time, at once, rather than waiting for a lock this process holds.
    @Test func aSealedStoreSyncingWithItsOwnFileIsRefusedAtOnce() throws {
        try sealedStore("a.sqlite", holding: "from a")
        let a = try store("a.sqlite")
        let started = Date()
        for name in ["a.sqlite", "sub/../a.sqlite", "./a.sqlite"] {
            #expect(throws: StoreError.refused(.syncWithItself(path: path(name)))) {
                try a.run("sync \(path(name)) --allow-plaintext")
            }
        }
        #expect(Date().timeIntervalSince(started) < 5)
        #expect(isSealed("a.sqlite"))
    }

    /// The remote half says in its hello whether its store is sealed, read from the file
    /// before the store is opened: true for a sealed store; false for a plain one and for a
    /// missing one, which is not created by the hello alone.
    @Test func theRemoteHalfsHelloSaysWhetherItsStoreIsSealed() throws {
        try sealedStore("sealed.sqlite", holding: "private words")
        try store("plain.sqlite").run("add public words")
        for (name, sealed) in [("sealed.sqlite", true), ("plain.sqlite", false), ("missing.sqlite", false)] {
            let connection = try ThreadConnection(serving: path(name))
            let remote = try RemoteSyncEndpoint(
                connection: connection, displayPath: name, hello: .current(program: "memo test"))
            #expect(remote.isStoreSealed == sealed, "\(name)")
            connection.close()
        }
        #expect(!FileManager.default.fileExists(atPath: path("missing.sqlite")))
        // A hello without the member (a client's, or an older memo's) reads as not sealed.
        let old = WireCoding.decode(
            SyncHello.Line.self, from: Array(#"{"memo-sync":{"protocol":1,"oldest":1,"program":"memo 0.9"}}"#.utf8)[...]
        )
        #expect(old?.hello.sealed == nil)
        #expect(
            !String(decoding: WireCoding.encode(SyncHello.Line(.current(program: "x"))), as: UTF8.self).contains(
                "sealed"))
    }

    /// Two sealed stores through the exchange: both stay sealed and hold both memos.
    @Test func twoSealedStoresSyncThroughThePipeAndStaySealed() throws {
        try sealedStore("a.sqlite", holding: "from a")
        try sealedStore("b.sqlite", holding: "from b")
        let a = try store("a.sqlite")
        let summary = try syncThroughPipe(a, with: path("b.sqlite"))
        #expect((summary.sent, summary.received) == (1, 1))
        #expect(isSealed("a.sqlite") && isSealed("b.sqlite"))
        #expect(try texts(store("b.sqlite")) == ["from a", "from b"])
    }
}
