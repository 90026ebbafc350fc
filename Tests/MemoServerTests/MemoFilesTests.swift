import Foundation
import Testing
@testable import MemoServer
@testable import MemoStore

@Suite("The memos' own files")
struct MemoFilesTests {
    let folder = NSTemporaryDirectory() + "memo-files-\(UUID().uuidString)/memo/open"

    @Test func aFileURINamesItsMemoAndNothingElseDoes() {
        let files = MemoFiles(folder: folder)
        #expect(files.id(ofURI: files.uri(of: 12)) == 12)
        #expect(files.id(ofURI: URL(fileURLWithPath: folder + "/sub/../7.md").absoluteString) == 7)
        for other in [URL(fileURLWithPath: folder + "/12.txt").absoluteString, URL(fileURLWithPath: "/tmp/12.md").absoluteString,
                      URL(fileURLWithPath: folder + "/0.md").absoluteString, URL(fileURLWithPath: folder + "/x.md").absoluteString,
                      "untitled:12.md", "file:///notes/today.md"] {
            #expect(files.id(ofURI: other) == nil, "\(other)")
        }
    }

    @Test func aFileHoldsTheMemosExactTextPrivately() throws {
        let files = MemoFiles(folder: folder)
        let memo = Memo(id: 3, uuid: "u", content: "no line break at the end\n\n  and spaces  ", insertDate: Timestamp(secondsSince1970: 0),
                        updateDate: nil, tags: [])
        try files.write(memo)
        #expect(try String(contentsOfFile: files.path(of: 3), encoding: .utf8) == memo.content)
        #expect(try FileManager.default.attributesOfItem(atPath: files.path(of: 3))[.posixPermissions] as? Int == 0o600)
        #expect(try FileManager.default.attributesOfItem(atPath: folder)[.posixPermissions] as? Int == 0o700)
        #expect(files.base(of: 3) == MemoFiles.Base(memo))
        files.remove(3)
        #expect(!FileManager.default.fileExists(atPath: files.path(of: 3)))
        #expect(files.ids.isEmpty)
    }

    @Test func theFolderFollowsXDGCacheHomeElseHome() {
        #expect(MemoFiles.folder(environment: Environment(["XDG_CACHE_HOME": "/c", "HOME": "/h"])) == "/c/memo/open")
        #expect(MemoFiles.folder(environment: Environment(["XDG_CACHE_HOME": "relative", "HOME": "/h"])) == "/h/.cache/memo/open")
        #expect(MemoFiles.folder(environment: Environment([:])) == nil)
    }
}
