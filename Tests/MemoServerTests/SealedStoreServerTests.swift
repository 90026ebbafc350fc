import Foundation
import MemoTestSupport
import Testing

@testable import MemoServer
@testable import MemoStore

/// The server on an encrypted store: its memos get no files of their own (go to definition
/// says why instead), and its log quotes none of the bytes it received.
@Suite("The server on an encrypted store")
struct SealedStoreServerTests {
    let folder = TemporaryFolder()
    let filesFolder = TemporaryFolder()
    var storePath: String { folder.file("store.sqlite") }
    static let secret = "Launch plan, the blue door"

    /// A server on the store file, sealed with a test passphrase unless `sealed` is false,
    /// holding one memo (#1).
    func server(sealed: Bool = true) throws -> ServerHarness {
        PassphraseSource.use(PassphraseSource { _ in Self.passphrase() })
        _ = try MemoStore.open(.file(path: storePath))
        if sealed { _ = try MemoStore.encrypt(fileAt: storePath) }
        let store = try MemoStore.open(.file(path: storePath))
        #expect(store.isSealed == sealed)
        let harness = try ServerHarness.initialized(store: store, filesFolder: filesFolder)
        #expect(harness.notebook.isStoreSealed == sealed)
        #expect(try harness.request("memo/add", ["content": Self.secret]).result?["id"] as? Int == 1)
        return harness
    }

    static func passphrase() -> SecretBytes? {
        let bytes = Array("correct horse battery staple".utf8)
        let secret = SecretBytes(count: bytes.count)
        secret?.withUnsafeMutableBytes { $0.copyBytes(from: bytes) }
        return secret
    }

    /// Every file under the memos' files folder.
    func filesWritten() -> [String] {
        FileManager.default.subpaths(atPath: filesFolder.path) ?? []
    }

    func position(_ character: Int, line: Int = 0) -> [String: Any] {
        ["textDocument": ["uri": "file:///notes/n.md"], "position": ["line": line, "character": character]]
    }

    @Test func goToDefinitionSaysWhyThereIsNoFileAndWritesNone() throws {
        let harness = try server()
        try harness.open("file:///notes/n.md", text: "See #1 here\n")
        let definition = try harness.request("textDocument/definition", position(5))
        #expect(definition.errorCode == -32803)
        let message = try #require(definition.errorMessage)
        #expect(message.hasPrefix("memo #1 has no file to open: "))
        #expect(message.contains("\(storePath) is encrypted") && message.contains("hover"))
        // Hover and completion answer from memory, as on any store.
        let hover = try harness.request("textDocument/hover", position(5))
        #expect(((hover.result?["contents"] as? [String: Any])?["value"] as? String)?.contains(Self.secret) == true)
        #expect(filesWritten() == [])
    }

    @Test func noOtherFeatureWritesAMemosFile() throws {
        let harness = try server()
        try harness.open("file:///notes/n.md", text: "See #1 here\n#\n")
        #expect(
            (try harness.request("textDocument/documentLink", ["textDocument": ["uri": "file:///notes/n.md"]])["result"]
                as? [Any])?.isEmpty == true)
        var references = position(5)
        references["context"] = ["includeDeclaration": true]
        let found = try harness.request("textDocument/references", references)["result"] as? [[String: Any]]
        #expect(found?.map { $0["uri"] as? String } == ["file:///notes/n.md"])
        let symbols = try harness.request("workspace/symbol", ["query": "launch"])
        #expect(symbols.errorCode == -32803 && symbols.errorMessage?.contains("encrypted") == true)
        let new = try harness.request("workspace/executeCommand", ["command": "memo.new", "arguments": ["Fresh"]])
        #expect(new.errorMessage?.contains("nothing was added") == true)
        #expect(try harness.notebook.memo(id: 2) == nil)
        let completion = try harness.request("textDocument/completion", position(1, line: 1))
        #expect((completion.result?["items"] as? [Any])?.count == 1)
        try harness.request("textDocument/rename", position(5).merging(["newName": "Renamed plan"]) { $1 })
        #expect(try harness.notebook.memo(id: 1)?.content == "Renamed plan")
        harness.server.tick()
        harness.server.finish()
        #expect(filesWritten() == [])
    }

    @Test func onAPlainStoreTheDefinitionIsTheMemosFile() throws {
        let harness = try server(sealed: false)
        let uri = try #require(try harness.fileURIOfMemo1())
        #expect(try String(contentsOf: try #require(URL(string: uri)), encoding: .utf8) == Self.secret)
        #expect(filesWritten().contains { $0.hasSuffix("/1.md") })
    }

    @Test func aMalformedHeaderIsReportedWithoutItsBytesForAnEncryptedStore() {
        let stream = Array("Content-Length: 2\r\n\(Self.secret)\r\n\r\n{}".utf8)
        var quoting = MessageFramer()
        var silent = MessageFramer(quotesHeaders: false)
        #expect(quoting.receive(stream) == [.malformed("a header line without a colon: '\(Self.secret)'")])
        #expect(silent.receive(stream) == [.malformed("a header line without a colon")])
        var number = MessageFramer(quotesHeaders: false)
        #expect(
            number.receive(Array("Content-Length: \(Self.secret)\r\n\r\n".utf8)) == [
                .malformed("the Content-Length is not a number")
            ])
    }
}
