import MemoStore

/// `memo encrypt` and `memo decrypt`: the store file sealed at rest, or plain again. They
/// work on the file, not in a session: each opens the store, changes its file and closes it.
package enum StoreEncryption {
    /// Seals the plain store file at `path` (`changingPassphrase`: seals a sealed one again
    /// under a new passphrase). What to tell the user.
    package static func encrypt(fileAt path: String, changingPassphrase: Bool) throws(StoreError) -> String {
        guard MemoStore.fileExists(at: path) else { throw .refused(.noStore(path: path)) }
        if changingPassphrase {
            let store = try MemoStore.open(.file(path: path))
            try store.changePassphrase()
            return "changed the passphrase of \(store.location.displayPath)"
        }
        return "encrypted \(try MemoStore.encrypt(fileAt: path))"
    }

    /// Writes the sealed store at `path` as a plain SQLite file.
    package static func decrypt(fileAt path: String) throws(StoreError) -> String {
        guard MemoStore.fileExists(at: path) else { throw .refused(.noStore(path: path)) }
        let store = try MemoStore.open(.file(path: path))
        try store.decrypt()
        return "decrypted \(store.location.displayPath)"
    }
}
