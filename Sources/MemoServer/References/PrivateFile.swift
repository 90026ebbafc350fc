import FoundationEssentials
import Glibc
import MemoModel

/// Whole small files of the memos' folder, written privately: a memo's file and its base.
enum PrivateFile {
    /// Replaces `path` atomically with `text` (folders 0700, file 0600): a reader sees the
    /// old file or the new one, never a part.
    static func replace(_ path: String, with text: String) throws {
        try PrivateFiles.createParentFolders(of: path)
        let temporary = path + ".\(getpid()).tmp"
        let descriptor = open(temporary, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0o600)
        guard descriptor >= 0 else { throw MemoFileError(path: path, code: errno) }
        let bytes = Array(text.utf8)
        let written = bytes.withUnsafeBytes { Glibc.write(descriptor, $0.baseAddress, $0.count) }
        let failure = written == bytes.count ? nil : errno
        fchmod(descriptor, 0o600)
        close(descriptor)
        guard failure == nil, rename(temporary, path) == 0 else {
            let code = failure ?? errno
            unlink(temporary)
            throw MemoFileError(path: path, code: code)
        }
    }

    /// The text of `path`, or nil when it cannot be read or is not UTF-8.
    static func read(_ path: String) -> String? {
        guard let data = try? Data(contentsOf: URL(fileURLWithPath: path)) else { return nil }
        return String(validating: Array(data), as: UTF8.self)
    }
}

/// A memo's file could not be written.
struct MemoFileError: Error, CustomStringConvertible {
    let path: String
    let code: Int32

    var description: String { "cannot write \(path): \(String(cString: strerror(code)))" }
}
