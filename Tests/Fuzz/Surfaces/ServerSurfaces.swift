// Compiled into MemoServer by scripts/fuzz only: a byte stream through the LSP framing into
// the JSON-RPC dispatch of a server on a fresh in-memory store.
import Foundation
import MemoNotebook
import MemoStore

package enum FuzzSurfaces {
    /// Command lines that reach files or devices are left out: `memo/execute` could otherwise
    /// read `/dev/zero` forever or write over any file the fuzzer names.
    private static let fileCommands = ["import", "export", "sync", "fixture", "/dev/", "/proc/"].map { Array($0.utf8) }

    package static func stream(_ bytes: UnsafeRawBufferPointer) {
        let input = Array(bytes)
        let lowercased = input.map { (0x41...0x5A).contains($0) ? $0 | 0x20 : $0 }
        for word in fileCommands where lowercased.indices.contains(where: { lowercased[$0...].starts(with: word) }) {
            return
        }
        guard let store = try? MemoStore.open(.memory) else { return }
        let notebook = Notebook(store: store, clock: DeterministicClock(), uuids: SequentialUUIDs(), displayTime: .utc)
        let server = MemoServer(notebook: notebook, memoFilesFolder: nil, send: { _ in }, log: { _ in })
        var framer = MessageFramer()
        // In two pieces, as a pipe may deliver it.
        let middle = input.count / 2
        for piece in [input[..<middle], input[middle...]] {
            for event in framer.receive(piece) {
                switch event {
                case .message(let body): server.receive(body)
                case .malformed(let reason): server.receiveMalformedFrame(reason)
                }
                if server.exitStatus != nil { return }
            }
        }
        server.tick()
    }
}
