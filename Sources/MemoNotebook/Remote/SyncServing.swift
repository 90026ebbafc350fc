import Glibc
import MemoSync

/// `memo sync --serve PATH`: the far end of a sync through ssh, speaking the sync protocol
/// on standard input and output for the store file at PATH.
package enum SyncServing {
    /// Serves until the client's input ends; whether the exchange ended well. Standard
    /// output is taken over for the protocol (`ProtocolStream`).
    package static func run(storeFile path: String, displayPath: String) -> Bool {
        let channel = LineChannel(input: STDIN_FILENO, output: ProtocolStream.takingOverStandardOutput())
        let service = SyncService(location: .file(path: path), displayPath: displayPath, channel: channel)
        return service.run(hello: .current(program: "memo \(memoVersion)")) == 0
    }
}
