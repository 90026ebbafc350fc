import Foundation
import MemoStore
import MemoTestSupport
import Testing

@testable import MemoServer

@Suite("memo/watch")
struct WatchTests {
    @Test func changesFromThisConnectionAreReported() throws {
        let harness = try ServerHarness.initialized()
        let watchID = try #require(try harness.request("memo/watch", ["tag": "work"]).result?["watchId"] as? Int)
        try harness.request("memo/add", ["content": "not watched"])
        #expect(harness.notifications("memo/didChange").isEmpty)
        try harness.request("memo/add", ["content": "watched", "tags": ["work"]])
        let replies = harness.receive(
            #"{"jsonrpc":"2.0","id":7,"method":"memo/add","params":{"content":"again","tags":["work"]}}"#)
        #expect(replies.count == 2)
        #expect(
            (replies.first as? [String: Any])?["id"] as? Int == 7,
            "the answer goes out before the notification it causes")
        let change = try #require(harness.notifications("memo/didChange").last)
        #expect(change["watchId"] as? Int == watchID)
        #expect((change["memos"] as? [[String: Any]])?.map { $0["content"] as? String } == ["again", "watched"])
        _ = try harness.request("memo/execute", ["line": "untag 2 work\nuntag 3 work"])
        #expect((harness.notifications("memo/didChange").last?["memos"] as? [Any])?.isEmpty == true)

        #expect(try harness.request("memo/unwatch", ["watchId": watchID])["result"] is NSNull)
        try harness.request("memo/add", ["content": "once more @work"])
        #expect(harness.notifications("memo/didChange").count == 3)
    }

    @Test func changesFromAnotherConnectionAreSeenOnTheNextTick() throws {
        let folder = TemporaryFolder()
        let path = folder.file("store.sqlite")
        let harness = try ServerHarness.initialized(store: try MemoStore.open(.file(path: path)))
        try harness.request("memo/watch", ["limit": 1])
        harness.server.tick()
        #expect(harness.notifications("memo/didChange").isEmpty)

        let other = try MemoStore.open(.file(path: path))
        try other.insert(
            MemoDraft(
                uuid: "00000000-0000-4000-8000-0000000000aa", content: "from another process",
                insertDate: Timestamp(secondsSince1970: 1_700_000_000)))
        harness.server.tick()
        let memos = try #require(harness.notifications("memo/didChange").last?["memos"] as? [[String: Any]])
        #expect(memos.map { $0["content"] as? String } == ["from another process"])
        harness.server.tick()
        #expect(harness.notifications("memo/didChange").count == 1)
    }
}
