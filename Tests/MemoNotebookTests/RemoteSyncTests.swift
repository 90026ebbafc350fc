import Foundation
import MemoNotebookTestSupport
import MemoTestSupport
import Testing

@testable import MemoNotebook
@testable import MemoStore
@testable import MemoSync

/// The sync exchange over a pipe (issue 26): `RemoteSyncEndpoint` talking to a `SyncService`
/// on another thread, as `memo sync HOST:PATH` talks to `memo sync --serve PATH` through ssh.
/// The e2e suite runs it through a real sshd; here the two transports are held side by side.
extension SyncTests {
    /// The same random use of two pairs of stores, one pair synced through the exchange and
    /// the other in one process: every sync moves as much, and the stores hold the same memos
    /// (by text, tags and dates: uuids are random).
    @Test(arguments: PropertySeeds.seeds(standard: 4))
    func aSyncThroughThePipeEndsAsASyncOfTheFilesDoes(seed: UInt64) throws {
        let piped = [try store("p-a.sqlite"), try store("p-b.sqlite")]
        let local = [try store("l-a.sqlite"), try store("l-b.sqlite")]
        var random = SeededRandom(seed: seed)
        var texts = 0
        for step in 1...60 {
            let side = Int.random(in: 0...1, using: &random)
            let count = try piped[side].notebook.store.count()
            let id = count > 0 ? Int64.random(in: 1...Int64(count + 2), using: &random) : 1
            texts += 1
            let line =
                switch Int.random(in: 0..<6, using: &random) {
                case 0, 1: "add text \(texts) @t\(texts % 3)"
                case 2: "edit \(id) edited \(texts)"
                case 3: "tag \(id) x\(texts % 2)"
                case 4: "delete \(id)"
                default: "sync"
                }
            if line == "sync" {
                let throughPipe = try syncThroughPipe(piped[side], with: path(side == 0 ? "p-b.sqlite" : "p-a.sqlite"))
                let peer = path(side == 0 ? "l-b.sqlite" : "l-a.sqlite")
                let rendered = StringOutput()
                try TextRenderer(style: TextStyle(width: nil, color: false, displayTime: .utc)).render(
                    .synced(throughPipe, path: peer), to: rendered)
                #expect(try local[side].run("sync \(peer)") == rendered.text, "step \(step)")
            } else {
                // The same command on both pairs: the same output, or the same refusal of a
                // missing id.
                let results = [piped[side].attempt(line), local[side].attempt(line)]
                #expect("\(results[0])" == "\(results[1])", "step \(step): \(line)")
                for result in results where !result.worked {
                    if case .memoNotFound? = result.refusal { continue }
                    Issue.record("step \(step): '\(line)' gave \(result)")
                }
            }
            for index in 0...1 {
                #expect(try withoutUUIDs(piped[index]) == withoutUUIDs(local[index]), "step \(step): \(line)")
            }
        }
    }

    /// A store on the other end that cannot be used: the client's error names the place and
    /// says so (exit status 3), and the file is left as it was.
    @Test func aStoreThatCannotBeUsedOnTheOtherEndIsAStoreError() throws {
        let a = try store("a.sqlite")
        try a.run("add kept")
        try "not a store\n".write(toFile: path("text.sqlite"), atomically: true, encoding: .utf8)
        do {
            _ = try syncThroughPipe(a, with: path("text.sqlite"))
            Issue.record("the sync went through")
        } catch let error as StoreError {
            guard case .remote(let place, let problem, let storeUnusable) = error else { throw error }
            #expect(place == "pipe:" + path("text.sqlite") && problem.contains("is not a memo store") && storeUnusable)
            #expect(ExitStatus.of(error, commandLine: true) == .storeUnusable)
        }
        #expect(try String(contentsOfFile: path("text.sqlite"), encoding: .utf8) == "not a store\n")
    }

    /// Each side speaks a range of versions and uses the highest both speak; none in common
    /// is a refusal that names both and whose memo to upgrade.
    @Test func theHellosAgreeOnTheHighestVersionBothSpeak() {
        let one = SyncHello(newest: 1, oldest: 1, program: "memo 1"),
            later = SyncHello(newest: 3, oldest: 1, program: "memo 3")
        let newer = SyncHello(newest: 5, oldest: 2, program: "memo 5")
        #expect(one.agreedVersion(with: one) == 1)
        #expect(one.agreedVersion(with: later) == 1 && later.agreedVersion(with: one) == 1)
        #expect(later.agreedVersion(with: newer) == 3)
        #expect(one.agreedVersion(with: newer) == nil && newer.agreedVersion(with: one) == nil)
        #expect(
            one.refusal(of: newer)
                == "the memo there is memo 5, sync protocol 2 to 5; this one is memo 1, protocol 1: upgrade memo here")
        #expect(
            newer.refusal(of: one)
                == "the memo there is memo 1, sync protocol 1; this one is memo 5, protocol 2 to 5: upgrade memo there")
    }

    /// A record crosses the pipe as it is: text, tags with their dots, links, versions, a
    /// tombstone's text and tags.
    @Test func aRecordCrossesTheWireUnchanged() throws {
        var live = SyncRecord(
            uuid: "u1",
            live: SyncRecord.Live(
                content: "see #2 🙂\nline", insertDate: 5, updateDate: 7,
                tags: [SyncRecord.Tag(name: "x", inline: false, addedBy: "s", addedSeq: 3)],
                links: [SyncRecord.Link(start: 4, length: 2, target: "u2")]),
            version: VersionVector(["s": 2, "t": 1]), tagsVersion: VersionVector(["s": 3]), textBy: "s", textSeq: 2,
            changedAt: 99, changedBy: "s")
        live.support = VersionVector(["s": 2])
        var tombstone = SyncRecord(
            uuid: "u3", live: nil, version: VersionVector(["t": 4]), changedAt: 100, changedBy: "t")
        tombstone.deletedTags = [SyncRecord.Tag(name: "y", inline: false, addedBy: "t", addedSeq: 1)]
        tombstone.deletedText = DeletedText(content: "gone", insertDate: 1, updateDate: nil, textBy: "t", textSeq: 1)
        for record in [live, tombstone] {
            #expect(WireCoding.decode(SyncRecord.self, from: WireCoding.encode(record)[...]) == record)
            #expect(!WireCoding.encode(record).contains(UInt8(ascii: "\n")), "one record is one line")
        }
    }

    /// `sync` of `session` with the store file at `path`, through a `SyncService` on another
    /// thread that serves that file over a pair of pipes.
    func syncThroughPipe(_ session: ScriptedNotebook, with path: String) throws -> SyncSummary {
        let connection = try ThreadConnection(serving: path)
        defer { connection.close() }
        let here = LocalSyncEndpoint(store: session.notebook.store, displayPath: "here")
        let remote = try RemoteSyncEndpoint(
            connection: connection, displayPath: "pipe:" + path, hello: .current(program: "memo test"))
        return try Synchronizer.sync(here, with: remote, at: session.notebook.changeTime)
    }

    func withoutUUIDs(_ session: ScriptedNotebook) throws -> [String] {
        try session.dump().map { $0.replacing(/"uuid":"[^"]*",?/, with: "") }.sorted()
    }
}

/// A `SyncService` on a thread of its own, serving a store file over two pipes.
final class ThreadConnection: SyncConnection {
    let channel: LineChannel
    private let requests: Int32, replies: Int32
    private let finished = DispatchSemaphore(value: 0)
    private var isClosed = false

    init(serving path: String) throws {
        var toService: [Int32] = [0, 0], fromService: [Int32] = [0, 0]
        guard pipe(&toService) == 0, pipe(&fromService) == 0 else { throw POSIXError(.EMFILE) }
        requests = toService[1]
        replies = fromService[0]
        channel = LineChannel(input: replies, output: requests)
        let (input, output, finished) = (toService[0], fromService[1], finished)
        Thread.detachNewThread {
            let service = SyncService(
                location: .file(path: path), displayPath: path, channel: LineChannel(input: input, output: output))
            _ = service.run(hello: .current(program: "memo service"))
            Glibc.close(input)
            Glibc.close(output)
            finished.signal()
        }
    }

    func explainEnd(heardFromMemo: Bool) -> String {
        close()
        return "the service ended"
    }

    func close() {
        guard !isClosed else { return }
        isClosed = true
        Glibc.close(requests)
        finished.wait()
        Glibc.close(replies)
    }
}
