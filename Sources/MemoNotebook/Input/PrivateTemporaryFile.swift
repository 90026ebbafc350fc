import Glibc
import MemoStore

/// A new file in `$TMPDIR` (else `/tmp`) that only its owner may read: the editor's copy of
/// a memo's text or a bulk edit's buffer, or piped text kept after a command could not use it.
enum PrivateTemporaryFile {
    /// Creates the file holding `bytes` and gives its path; `kind` names it in errors
    /// ("a file for the editor").
    static func create(holding bytes: [UInt8], environment: Environment, kind: String) throws -> String {
        let folder = environment["TMPDIR"].flatMap { $0.hasPrefix("/") ? $0 : nil } ?? "/tmp"
        var template = Array((folder + "/memo-XXXXXX.md").utf8CString)
        // mkstemps creates the file with mode 0600: nobody else reads the text.
        let descriptor = template.withUnsafeMutableBufferPointer { buffer in
            buffer.baseAddress.map { mkstemps($0, 3) } ?? -1
        }
        guard descriptor >= 0 else {
            throw CommandError.invalid(
                "cannot create a file for the \(kind) in \(folder): \(String(cString: strerror(errno)))")
        }
        let path = String(decoding: template.dropLast().map { UInt8(bitPattern: $0) }, as: UTF8.self)
        let written = bytes.withUnsafeBytes { write(descriptor, $0.baseAddress, $0.count) }
        close(descriptor)
        guard written == bytes.count else {
            unlink(path)
            throw CommandError.invalid(
                "cannot write the file for the \(kind) in \(folder): \(String(cString: strerror(errno)))")
        }
        return path
    }
}
