/// How far one store has another's changes: every change up to number `seq` of the peer, at
/// the point of the peer's history the peer named `checkpoint` (a random token it keeps).
/// A peer that does not hold the checkpoint (restored from an older backup, or a copy) has
/// another history since, so the cursor does not hold for it and a full comparison runs.
package struct SyncCursor: Equatable, Sendable, Codable {
    package var seq: Int64
    package var checkpoint: String

    package init(seq: Int64, checkpoint: String) {
        self.seq = seq
        self.checkpoint = checkpoint
    }
}
