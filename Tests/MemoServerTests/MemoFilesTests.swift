import Foundation
import MemoTestSupport
import Testing

@testable import MemoServer
@testable import MemoStore

@Suite("The memos' own files")
struct MemoFilesTests {
    let temporary = TemporaryFolder()
    var folder: String { temporary.file("memo/open") }

    @Test func aFileURINamesItsMemoAndNothingElseDoes() {
        let files = MemoFiles(folder: folder)
        #expect(files.id(ofURI: files.uri(of: 12)) == 12)
        #expect(files.id(ofURI: URL(fileURLWithPath: folder + "/sub/../7.md").absoluteString) == 7)
        for other in [
            URL(fileURLWithPath: folder + "/12.txt").absoluteString, URL(fileURLWithPath: "/tmp/12.md").absoluteString,
            URL(fileURLWithPath: folder + "/0.md").absoluteString,
            URL(fileURLWithPath: folder + "/x.md").absoluteString,
            URL(fileURLWithPath: folder + "/012.md").absoluteString,
            URL(fileURLWithPath: folder + "/+12.md").absoluteString,
            "untitled:12.md", "file:///notes/today.md"
        ] {
            #expect(files.id(ofURI: other) == nil, "\(other)")
        }
    }

    @Test func aFileHoldsTheMemosExactTextPrivately() throws {
        let files = MemoFiles(folder: folder)
        let memo = Memo(
            id: 3, uuid: "u", content: "no line break at the end\n\n  and spaces  ",
            insertDate: Timestamp(secondsSince1970: 0),
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
        #expect(
            MemoFiles.folder(environment: Environment(["XDG_CACHE_HOME": "relative", "HOME": "/h"]))
                == "/h/.cache/memo/open")
        #expect(MemoFiles.folder(environment: Environment([:])) == nil)
    }

    @Test func theBaseIsKeptOnDiskForEveryServerOnTheStore() throws {
        let memo = Memo(
            id: 4, uuid: "u4", content: "text", insertDate: Timestamp(secondsSince1970: 0), updateDate: nil, tags: [])
        try MemoFiles(folder: folder).write(memo)
        let restarted = MemoFiles(folder: folder)
        #expect(restarted.base(of: 4) == MemoFiles.Base(memo))
        var edited = memo
        edited.content = "other text"
        #expect(restarted.base(of: 4) != MemoFiles.Base(edited))
        #expect(MemoFiles.Base(fileText: "not a base\n") == nil)
    }

    @Test func eachStoreHasItsOwnFolderAndSavesOfAnotherStoresFilesAreNamed() {
        let work = MemoFiles(root: folder, store: .file(path: "/notes/work.sqlite"))
        let home = MemoFiles(root: folder, store: .file(path: "/notes/home.sqlite"))
        #expect(work.folder != home.folder)
        #expect(work.folder.hasPrefix(folder + "/work-") && home.folder.hasPrefix(folder + "/home-"))
        #expect(MemoFiles(root: folder, store: .file(path: "/notes/work.sqlite")).folder == work.folder)
        #expect(MemoFiles(root: folder, store: .memory).folder != MemoFiles(root: folder, store: .memory).folder)
        #expect(work.id(ofURI: home.uri(of: 1)) == nil)
        #expect(work.otherStoresFolder(ofURI: home.uri(of: 1)) == home.folder)
        #expect(work.otherStoresFolder(ofURI: work.uri(of: 1)) == nil)
        #expect(work.otherStoresFolder(ofURI: "file:///tmp/1.md") == nil)
    }

    @Test func aTrailingSlashOrASymlinkedCacheFolderNamesTheSameFiles() throws {
        #expect(MemoFiles.folder(environment: Environment(["XDG_CACHE_HOME": "/c//", "HOME": "/h"])) == "/c/memo/open")
        let real = temporary.file("real"), link = temporary.file("link")
        try FileManager.default.createDirectory(atPath: real, withIntermediateDirectories: true)
        try FileManager.default.createSymbolicLink(atPath: link, withDestinationPath: real)
        let files = MemoFiles(folder: link + "/")
        try files.write(
            Memo(id: 5, uuid: "u5", content: "x", insertDate: Timestamp(secondsSince1970: 0), updateDate: nil, tags: [])
        )
        #expect(files.id(ofURI: files.uri(of: 5)) == 5)
        #expect(files.id(ofURI: URL(fileURLWithPath: real + "/5.md").absoluteString) == 5)
    }
}
