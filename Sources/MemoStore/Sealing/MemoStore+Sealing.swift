import MemoModel

extension MemoStore {
    /// Whether the store is sealed (encrypted at rest).
    package var isSealed: Bool { sealedFile != nil }

    /// Whether the file at `path` is a sealed store, read from its first bytes without
    /// opening (or creating) the store: false for a plain store and for no file.
    package static func isSealedFile(at path: String) -> Bool {
        SealedStoreFile.isSealed(path)
    }

    /// Seals the plain store file at `path` in its place, with a passphrase asked for a new
    /// store (`PassphraseSource`). It needs the store to itself: SQLite leaves its
    /// write-ahead log only when no other connection has the file open, and the image is
    /// read inside an exclusive transaction. Returns the path of the sealed store.
    package static func encrypt(fileAt path: String) throws(StoreError) -> String {
        if SealedStoreFile.isSealed(path) { throw .refused(.alreadySealed) }
        let plain = try MemoStore.open(.file(path: path))
        guard case .file(let absolutePath) = plain.location else { throw .refused(.alreadySealed) }
        let passphrase = try requiredPassphrase(.choose(path: absolutePath))
        let database = plain.database
        try StoreError.wrapping {
            let mode: String?
            do {
                mode = try database.prepare("PRAGMA journal_mode = DELETE").firstRow { $0.string(at: 0) }
            } catch let error as SQLiteError where error.code == .busy || error.code == .locked {
                mode = nil
            }
            guard mode == "delete" else { throw StoreError.refused(.storeInUse) }
            try database.execute("BEGIN EXCLUSIVE")
            defer { try? database.execute("ROLLBACK") }
            _ = try database.withImage { image throws in
                try SealedStoreFile.seal(image, at: absolutePath, passphrase: passphrase)
            }
        }
        return absolutePath
    }

    /// Writes the store as a plain SQLite file in place of its sealed one (`memo decrypt`).
    /// The store must not be changed afterwards: it is closed.
    package func decrypt() throws(StoreError) {
        guard let sealedFile else { throw .refused(.notSealed) }
        try StoreError.wrapping { try database.withImage { image throws in try sealedFile.unseal(image) } }
    }

    /// Seals the store again under a new passphrase (`memo encrypt --change-passphrase`).
    package func changePassphrase() throws(StoreError) {
        guard let sealedFile else { throw .refused(.notSealed) }
        let passphrase = try Self.requiredPassphrase(.replace(path: sealedFile.path))
        try StoreError.wrapping {
            try database.withImage { image throws in try sealedFile.rekey(image, passphrase: passphrase) }
        }
    }

    private static func requiredPassphrase(_ request: PassphraseSource.Request) throws(StoreError) -> SecretBytes {
        guard let passphrase = try PassphraseSource.passphrase(request) else {
            throw .cannotOpen(path: request.path, reason: "no passphrase was given")
        }
        return passphrase
    }
}
