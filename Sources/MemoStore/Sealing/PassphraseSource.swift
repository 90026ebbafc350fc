import MemoModel
import Synchronization

/// Where the passphrase of a sealed store comes from. The program sets it once, as its face
/// allows (`use`): a person at a terminal may be asked; scripts and the server take it only
/// from `$MEMO_PASSPHRASE_COMMAND`. The store asks it when it opens, encrypts or re-keys one.
package struct PassphraseSource: Sendable {
    package enum Request: Sendable, Equatable {
        /// The passphrase of the sealed store at `path`; `attempt` counts the tries from 1.
        case open(path: String, attempt: Int)
        /// A passphrase for the store at `path`, being encrypted.
        case choose(path: String)
        /// The new passphrase of the sealed store at `path`.
        case replace(path: String)
    }

    /// The passphrase asked, or nil when no further try may be made (a command is asked
    /// once; a person three times). Throws when none can be had at all.
    package let passphrase: @Sendable (Request) throws(StoreError) -> SecretBytes?

    package init(passphrase: @escaping @Sendable (Request) throws(StoreError) -> SecretBytes?) {
        self.passphrase = passphrase
    }

    private static let current = Mutex<PassphraseSource?>(nil)

    /// Makes `source` the process's source of passphrases.
    package static func use(_ source: PassphraseSource) {
        current.withLock { $0 = source }
    }

    /// The passphrase for `request` from the process's source.
    static func passphrase(_ request: Request) throws(StoreError) -> SecretBytes? {
        guard let source = current.withLock({ $0 }) else {
            throw .cannotOpen(
                path: request.path, reason: "the store is encrypted and memo has no way to ask its passphrase")
        }
        return try source.passphrase(request)
    }
}

extension PassphraseSource.Request {
    package var path: String {
        switch self {
        case .open(let path, _), .choose(let path), .replace(let path): path
        }
    }
}
