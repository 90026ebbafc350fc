import Foundation
import MemoTestSupport
import Testing

@testable import MemoStore

/// Encrypted stores at the store's level: sealing, the save after each commit (and only at
/// the end of a batch), and refusals that write nothing. Each opening derives a key
/// (Argon2id over 256 MiB): the suite runs its tests one at a time.
@Suite("Sealed (encrypted) store files", .serialized)
struct SealedStoreTests {
    let folder = TemporaryFolder()

    init() {
        PassphraseSource.use(PassphraseSource { _ throws(StoreError) in Self.passphrase("correct horse") })
    }

    static func passphrase(_ text: String) -> SecretBytes? {
        let bytes = Array(text.utf8)
        let secret = SecretBytes(count: bytes.count)
        secret?.withUnsafeMutableBytes { $0.copyBytes(from: bytes) }
        return secret
    }

    private func bytes(_ path: String) throws -> Data { try Data(contentsOf: URL(fileURLWithPath: path)) }

    @Test func aSealedStoreHoldsNoPlaintextAndSavesEachCommit() throws {
        let path = folder.file("private.sqlite")
        try MemoStore.open(.file(path: path)).insert(draft("plaintextword one"))
        _ = try MemoStore.encrypt(fileAt: path)
        let store = try MemoStore.open(.file(path: path))
        #expect(store.isSealed)
        let sealed = try bytes(path)
        #expect(sealed.starts(with: Array("memoSEAL".utf8)))
        #expect(sealed.range(of: Data("plaintextword".utf8)) == nil)
        #expect(!FileManager.default.fileExists(atPath: path + "-wal"))

        #expect(try store.count() == 1)
        #expect(try bytes(path) == sealed, "reading saves nothing")
        try store.insert(draft("plaintextword two", at: 1, number: 2))
        let saved = try bytes(path)
        #expect(saved != sealed, "the commit wrote a new sealed file")
        #expect(saved.range(of: Data("plaintextword".utf8)) == nil)
        #expect(try FileManager.default.contentsOfDirectory(atPath: folder.path) == ["private.sqlite"])
    }

    @Test func aBatchIsSavedAtItsEndOnly() throws {
        let path = folder.file("batch.sqlite")
        try MemoStore.open(.file(path: path)).insert(draft("first"))
        let store = try MemoStore.open(.file(path: MemoStore.encrypt(fileAt: path)))
        let before = try bytes(path)
        try store.beginBatch(at: Timestamp(secondsSince1970: 5))
        try store.insert(draft("in the batch", at: 6, number: 2))
        #expect(try bytes(path) == before)
        _ = try store.saveBatch()
        #expect(try bytes(path) != before)
    }

    @Test func aWrongPassphraseOrOneChangedByteIsRefusedAndWritesNothing() throws {
        let path = folder.file("refused.sqlite")
        try MemoStore.open(.file(path: path)).insert(draft("first"))
        _ = try MemoStore.encrypt(fileAt: path)
        let sealed = try bytes(path)
        let refusal = StoreError.cannotOpen(path: path, reason: "wrong passphrase, or the file is damaged")

        PassphraseSource.use(PassphraseSource { _ throws(StoreError) in Self.passphrase("wrong horse") })
        #expect(throws: refusal) { try MemoStore.open(.file(path: path)) }
        #expect(try bytes(path) == sealed)

        PassphraseSource.use(PassphraseSource { _ throws(StoreError) in Self.passphrase("correct horse") })
        for offset in [9, 20, 40, 55, 70, sealed.count / 2, sealed.count - 1] {
            var changed = sealed
            changed[offset] ^= 0x01
            try changed.write(to: URL(fileURLWithPath: path))
            #expect(throws: refusal, "a bit flipped at \(offset)") { try MemoStore.open(.file(path: path)) }
            #expect(try bytes(path) == changed)
        }
        try sealed.write(to: URL(fileURLWithPath: path))
        #expect(try MemoStore.open(.file(path: path)).count() == 1)
    }

    @Test func decryptGivesAPlainStoreWithTheSameMemos() throws {
        let path = folder.file("plain-again.sqlite")
        try MemoStore.open(.file(path: path)).insert(draft("kept"))
        try MemoStore.open(.file(path: MemoStore.encrypt(fileAt: path))).decrypt()
        let plain = try MemoStore.open(.file(path: path))
        #expect(!plain.isSealed)
        #expect(try plain.info().journalMode == "wal")
        #expect(try plain.count() == 1)
    }
}
