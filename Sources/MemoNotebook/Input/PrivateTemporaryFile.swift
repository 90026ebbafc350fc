import Glibc
import MemoStore

/// A new file that only its owner may read, in the `TemporaryTextPlace` of the store: the
/// editor's copy of a memo's text or a bulk edit's buffer, or piped text kept after a command
/// could not use it.
struct PrivateTemporaryFile {
    let path: String
    /// The private folder that holds the file alone, for an encrypted store.
    private let scratch: PrivateScratchFolder?

    /// Creates the file holding `bytes`; `kind` names it in errors ("the editor").
    init(holding bytes: [UInt8], in place: TemporaryTextPlace, environment: Environment, kind: String) throws {
        let scratch = place == .privateScratch ? try PrivateScratchFolder(environment: environment, for: kind) : nil
        let folder = scratch?.path ?? TemporaryTextPlace.temporaryFolder(environment: environment)
        var template = Array((folder + "/memo-XXXXXX.md").utf8CString)
        // mkstemps creates the file with mode 0600: nobody else reads the text.
        let descriptor = template.withUnsafeMutableBufferPointer { buffer in
            buffer.baseAddress.map { mkstemps($0, 3) } ?? -1
        }
        guard descriptor >= 0 else {
            let reason = String(cString: strerror(errno))
            scratch?.remove()
            throw CommandError.invalid("cannot create a file for the \(kind) in \(folder): \(reason)")
        }
        let path = String(decoding: template.dropLast().map { UInt8(bitPattern: $0) }, as: UTF8.self)
        let written = bytes.withUnsafeBytes { write(descriptor, $0.baseAddress, $0.count) }
        let reason = String(cString: strerror(errno))
        close(descriptor)
        guard written == bytes.count else {
            unlink(path)
            scratch?.remove()
            throw CommandError.invalid("cannot write the file for the \(kind) in \(folder): \(reason)")
        }
        self.path = path
        self.scratch = scratch
    }

    /// Removes the file (and its private folder).
    func remove() {
        unlink(path)
        scratch?.remove()
    }

    /// Keeps the file for its owner alone, past the end of this process; its path then.
    func keep() throws -> String {
        // The editor may have saved a new file in its place: only its owner reads it still.
        chmod(path, 0o600)
        guard let scratch else { return path }
        return try scratch.keep() + path.dropFirst(scratch.path.count)
    }
}
