import MemoStore

/// The version of a memo an editor's copy of its text was written from (the server's memo
/// files): a save of that copy edits the memo only while the memo is still this version
/// (`Command.editIfStill`).
package struct MemoFileBase: Equatable, Sendable {
    package let uuid: String
    package let updateDate: Timestamp?
    /// A stable 128-bit hash of the text (`StableUUID`): the same in every process.
    package let contentHash: String

    package init(_ memo: Memo) {
        uuid = memo.uuid
        updateDate = memo.updateDate
        contentHash = StableUUID.make(from: memo.content)
    }

    package init(uuid: String, updateDate: Timestamp?, contentHash: String) {
        self.uuid = uuid
        self.updateDate = updateDate
        self.contentHash = contentHash
    }

    /// This version in 16 hex digits, the same in every process: what a bulk-edit buffer's
    /// header writes (`v:…`) so that a later save of the buffer knows what it was made from.
    package var fingerprint: String {
        let stamp = updateDate.map { String($0.millisecondsSince1970) } ?? "never"
        let hash = FNV1a.hash([uuid, stamp, contentHash].joined(separator: "\n"))
        let digits = String(hash, radix: 16)
        return String(repeating: "0", count: 16 - digits.count) + digits
    }

    /// Whether `text` is the text this version was written with (an editor may have
    /// ended it with a line break).
    package func isText(of text: String) -> Bool {
        StableUUID.make(from: text) == contentHash
            || (text.hasSuffix("\n") && StableUUID.make(from: String(text.dropLast())) == contentHash)
    }
}
