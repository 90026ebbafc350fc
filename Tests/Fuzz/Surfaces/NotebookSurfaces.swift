// Compiled into MemoNotebook by scripts/fuzz only: the surfaces of MemoNotebook that read
// untrusted bytes, each run on one fuzzer input. Errors are the expected answer to most
// inputs; a crash, a hang or a sanitizer report is what the fuzzer looks for.
import Foundation
import MemoStore

package enum FuzzSurfaces {
    /// The lexer and parser: each line of the input, the rest of it as a heredoc body.
    package static func commandLine(_ bytes: UnsafeRawBufferPointer) {
        let lines = String(decoding: bytes, as: UTF8.self).split(separator: "\n", omittingEmptySubsequences: false)
        for (index, line) in lines.enumerated() {
            if case .needsHeredoc = try? CommandParser.parse(line: String(line)) {
                _ = try? CommandParser.parse(line: String(line), heredoc: lines[(index + 1)...].joined(separator: "\n"))
            }
        }
        _ = try? CommandParser.parse(arguments: lines.prefix(16).map(String.init))
    }

    package static func jsonLines(_ bytes: UnsafeRawBufferPointer) {
        read(bytes) { JSONLinesReader(file: $0) }
    }

    package static func jsonArray(_ bytes: UnsafeRawBufferPointer) {
        read(bytes) { JSONArrayReader(file: $0) }
    }

    package static func markdown(_ bytes: UnsafeRawBufferPointer) {
        read(bytes) { MarkdownReader(file: $0, displayTime: .utc) }
    }

    package static func jrnl(_ bytes: UnsafeRawBufferPointer) {
        read(bytes) { JrnlReader(file: $0, displayTime: .utc) }
    }

    /// A note of a folder import: its front matter, and the date that front matter gives.
    package static func note(_ bytes: UnsafeRawBufferPointer) {
        let (matter, _) = FrontMatter.split(String(decoding: bytes, as: UTF8.self))
        if let date = matter.date { _ = SourceDate.instant(date, in: .utc) }
    }

    /// Every record an import reader makes of `bytes`, read from a file as `import` reads one.
    private static func read<Reader: RecordReader>(
        _ bytes: UnsafeRawBufferPointer, _ makeReader: (ImportFile) -> Reader
    ) {
        let descriptor = InputFile.holding(bytes)
        var reader = makeReader(ImportFile(name: "fuzz", descriptor: descriptor))
        while case .some(.some) = try? reader.next() {}
    }
}

/// One scratch file, rewritten for each input.
enum InputFile {
    nonisolated(unsafe) private static var descriptor: Int32 = -1
    nonisolated(unsafe) private static var path = ""

    static func holding(_ bytes: UnsafeRawBufferPointer) -> Int32 {
        if descriptor < 0 {
            path = NSTemporaryDirectory() + "memo-fuzz-\(getpid())"
            descriptor = open(path, O_RDWR | O_CREAT | O_TRUNC, 0o600)
            unlink(path)
        }
        _ = ftruncate(descriptor, 0)
        if let base = bytes.baseAddress { _ = pwrite(descriptor, base, bytes.count, 0) }
        _ = lseek(descriptor, 0, SEEK_SET)
        return descriptor
    }
}
