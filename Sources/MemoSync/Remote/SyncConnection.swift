/// The pipe to a `memo sync --serve` and the program that carries it (ssh, or a thread in
/// tests): what `RemoteSyncEndpoint` talks through.
package protocol SyncConnection: AnyObject {
    var channel: LineChannel { get }
    /// Ends the connection (closes its pipes, waits for its program) and says why the other
    /// side stopped answering, from what the program printed and how it ended.
    /// `heardFromMemo` is false when no hello came: the program may have reached no memo.
    func explainEnd(heardFromMemo: Bool) -> String
    /// Ends the connection once the exchange is over.
    func close()
}

/// What crossed a connection so far: memos (`SyncRecord`s) and bytes, each way.
package struct SyncTraffic: Equatable, Sendable {
    package var recordsSent = 0
    package var recordsReceived = 0
    package var bytesSent = 0
    package var bytesReceived = 0

    package init() {}
}
