import Foundation
import MemoTestSupport
import Testing

@testable import MemoServer

/// `textDocument/references` finds the closed files of the workspace folders that reference a
/// memo, as git lists them, and follows them as they change on disk.
@Suite("References in the workspace's files")
struct WorkspaceReferenceTests {
    let project = TemporaryFolder()

    /// A server on a store of memos #1 "Alpha", #2 "Beta, see #1", initialized with the project
    /// as its workspace folder; `watching`: the client registers for changed files when asked.
    func server(watching: Bool = false, alsoFolders: [String] = []) throws -> ServerHarness {
        let harness = try ServerHarness()
        var capabilities: [String: Any] = [:]
        if watching { capabilities["workspace"] = ["didChangeWatchedFiles": ["dynamicRegistration": true]] }
        try harness.request(
            "initialize",
            [
                "capabilities": capabilities,
                "workspaceFolders": ([project.path] + alsoFolders.map(project.file)).map {
                    ["uri": URL(fileURLWithPath: $0).absoluteString, "name": "notes"]
                }
            ])
        _ = try harness.notify("initialized", [:])
        try harness.request("memo/add", ["content": "Alpha"])
        try harness.request("memo/add", ["content": "Beta, see #1"])
        return harness
    }

    /// Answers the server's request to register its file watchers, as a client that accepts
    /// them does; the request.
    @discardableResult
    func answerWatcherRegistration(_ harness: ServerHarness) throws -> [String: Any] {
        let registration = try #require(
            harness.sent.compactMap { $0 as? [String: Any] }.first {
                $0["method"] as? String == "client/registerCapability"
            })
        let id = try #require(registration["id"] as? String)
        harness.receive(#"{"jsonrpc":"2.0","id":"\#(id)","result":null}"#)
        return registration
    }

    func git(_ arguments: String..., in folder: String = "") throws {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/git")
        process.arguments = ["-C", folder.isEmpty ? project.path : project.file(folder)] + arguments
        try process.run()
        process.waitUntilExit()
        #expect(process.terminationStatus == 0)
    }

    func uri(_ name: String) -> String { URL(fileURLWithPath: project.file(name)).absoluteString }

    /// The places `references` gives for the cursor at `line`:`character` of `uri`, as
    /// "NAME:LINE:CHARACTER" (NAME the file's name).
    func references(_ harness: ServerHarness, in uri: String, line: Int = 0, character: Int) throws -> [String] {
        let answer = try harness.request(
            "textDocument/references",
            [
                "textDocument": ["uri": uri], "position": ["line": line, "character": character],
                "context": ["includeDeclaration": false]
            ])
        return (answer["result"] as? [[String: Any]] ?? []).map { location in
            let start = (location["range"] as? [String: Any])?["start"] as? [String: Any] ?? [:]
            let name = (location["uri"] as? String ?? "").split(separator: "/").last.map(String.init) ?? ""
            return "\(name):\(start["line"] as? Int ?? -1):\(start["character"] as? Int ?? -1)"
        }
    }

    /// `references`, or what it threw as the one place (so a failed expectation shows the places).
    func places(_ harness: ServerHarness, in uri: String, line: Int = 0, character: Int) -> [String] {
        do { return try references(harness, in: uri, line: line, character: character) } catch { return ["\(error)"] }
    }

    @Test func aClosedFileIsFoundAndOnesGitIgnoresOrThatAreNotTextAreNot() throws {
        try git("init", "-q")
        try project.write("ignored.md\nbuild/\n", to: ".gitignore")
        try project.write("Plan\n\nask about #1 first\n", to: "plan.txt")
        try project.write("see #1\n", to: "ignored.md")
        try FileManager.default.createDirectory(atPath: project.file("build"), withIntermediateDirectories: true)
        try project.write("see #1\n", to: "build/out.md")
        try project.write("see #1\n", to: "script")
        try Data("see #1 \u{FF}\n".utf8 + [0xFF]).write(to: URL(fileURLWithPath: project.file("latin1.txt")))
        try project.write("```\n#1 in code\n```\n[x](#1) and `#1`; memo:" + "0", to: "code.md")
        let harness = try server()
        let uuid = try #require(try harness.notebook.memo(id: 1)?.uuid)
        try project.write("by uuid memo:\(uuid)\n", to: "sub.md")
        try harness.open(uri("note.md"), text: "about #1\n")
        #expect(
            places(harness, in: uri("note.md"), character: 7) == [
                "2.md:0:10", "note.md:0:6", "plan.txt:2:10", "sub.md:0:8"
            ])
    }

    @Test func anOpenDocumentsTextCountsNotItsFileOnDisk() throws {
        try git("init", "-q")
        try project.write("#1 on disk\n", to: "plan.txt")
        let harness = try server()
        try harness.open(uri("plan.txt"), language: "text", text: "moved\n\nnow #1 here\n")
        #expect(places(harness, in: uri("plan.txt"), line: 2, character: 5) == ["2.md:0:10", "plan.txt:2:4"])
    }

    @Test func anywhereInAMemosOwnFileListsItsBacklinks() throws {
        try git("init", "-q")
        try project.write("ask about #1 first\n", to: "plan.txt")
        let harness = try server()
        let memoFile = try #require(try harness.fileURIOfMemo1())
        try harness.open(memoFile, text: "Alpha\n")
        #expect(places(harness, in: memoFile, character: 0) == ["2.md:0:10", "n.md:0:0", "plan.txt:0:10"])
    }

    @Test func aFolderThatIsNotAGitWorkTreeIsWalkedLeavingOutHiddenOnes() throws {
        try FileManager.default.createDirectory(atPath: project.file("deep/er"), withIntermediateDirectories: true)
        try FileManager.default.createDirectory(atPath: project.file(".hidden"), withIntermediateDirectories: true)
        try project.write("#1\n", to: "deep/er/found.markdown")
        try project.write("#1\n", to: ".hidden/not.md")
        try project.write("#1\n", to: ".not.md")
        let harness = try server()
        try harness.open(uri("note.md"), text: "#1\n")
        #expect(places(harness, in: uri("note.md"), character: 1) == ["2.md:0:10", "note.md:0:0", "found.markdown:0:0"])
    }

    @Test func changesOnDiskAreFoundByCheckingTheFilesWhenTheClientDoesNotReportThem() throws {
        try git("init", "-q")
        try project.write("#1\n", to: "plan.txt")
        let harness = try server()
        #expect(
            harness.sent.compactMap { ($0 as? [String: Any])?["method"] as? String }.contains(
                "client/registerCapability") == false)
        try harness.open(uri("note.md"), text: "#1\n")
        #expect(places(harness, in: uri("note.md"), character: 1) == ["2.md:0:10", "note.md:0:0", "plan.txt:0:0"])
        try project.write("no reference now, but a longer line\n", to: "plan.txt")
        try project.write("\n#1\n", to: "later.md")
        #expect(places(harness, in: uri("note.md"), character: 1) == ["2.md:0:10", "note.md:0:0", "later.md:1:0"])
    }

    @Test func changesTheClientReportsAreApplied() throws {
        try git("init", "-q")
        try project.write("#1\n", to: "plan.txt")
        let harness = try server(watching: true)
        let registration = try answerWatcherRegistration(harness)
        let watchers =
            (((registration["params"] as? [String: Any])?["registrations"] as? [[String: Any]])?.first?[
                "registerOptions"] as? [String: Any])?["watchers"] as? [[String: Any]]
        #expect(watchers?.compactMap { $0["globPattern"] as? String } == ["**/*.{markdown,md,txt}", "**/.gitignore"])
        try harness.open(uri("note.md"), text: "#1\n")
        #expect(places(harness, in: uri("note.md"), character: 1) == ["2.md:0:10", "note.md:0:0", "plan.txt:0:0"])
        try project.write("\n\n#1\n", to: "later.md")
        _ = try harness.notify(
            "workspace/didChangeWatchedFiles", ["changes": [["uri": uri("later.md"), "type": 1]]])
        try FileManager.default.removeItem(atPath: project.file("plan.txt"))
        _ = try harness.notify(
            "workspace/didChangeWatchedFiles", ["changes": [["uri": uri("plan.txt"), "type": 3]]])
        #expect(places(harness, in: uri("note.md"), character: 1) == ["2.md:0:10", "note.md:0:0", "later.md:2:0"])
        // What the client reports is what counts: no folder is listed again for a `references`.
        try project.write("#1\n", to: "unreported.md")
        #expect(places(harness, in: uri("note.md"), character: 1) == ["2.md:0:10", "note.md:0:0", "later.md:2:0"])
        // A file made again is read again; its folder listed again (git decides) brings the other.
        try project.write("back: #1\n", to: "plan.txt")
        _ = try harness.notify(
            "workspace/didChangeWatchedFiles", ["changes": [["uri": uri("plan.txt"), "type": 1]]])
        #expect(
            places(harness, in: uri("note.md"), character: 1) == [
                "2.md:0:10", "note.md:0:0", "later.md:2:0", "plan.txt:0:6", "unreported.md:0:0"
            ])
    }

    /// A file saved from the editor and closed counts as saved, though no watcher reported it.
    @Test func aSavedFileIsReadAgain() throws {
        try git("init", "-q")
        try project.write("#1\n", to: "plan.txt")
        let harness = try server(watching: true)
        try answerWatcherRegistration(harness)
        try harness.open(uri("note.md"), text: "#1\n")
        #expect(places(harness, in: uri("note.md"), character: 1) == ["2.md:0:10", "note.md:0:0", "plan.txt:0:0"])
        try harness.open(uri("plan.txt"), language: "text", text: "#1\n")
        try project.write("moved\n  #1\n", to: "plan.txt")
        _ = try harness.notify("textDocument/didSave", ["textDocument": ["uri": uri("plan.txt")]])
        _ = try harness.notify("textDocument/didClose", ["textDocument": ["uri": uri("plan.txt")]])
        #expect(places(harness, in: uri("note.md"), character: 1) == ["2.md:0:10", "note.md:0:0", "plan.txt:1:2"])
    }

    @Test func aFolderAddedLaterIsIndexed() throws {
        let other = TemporaryFolder()
        try other.write("#1 elsewhere\n", to: "far.md")
        let harness = try server()
        try harness.open(uri("note.md"), text: "#1\n")
        #expect(places(harness, in: uri("note.md"), character: 1) == ["2.md:0:10", "note.md:0:0"])
        _ = try harness.notify(
            "workspace/didChangeWorkspaceFolders",
            [
                "event": [
                    "added": [["uri": URL(fileURLWithPath: other.path).absoluteString, "name": "far"]], "removed": []
                ]
            ])
        #expect(places(harness, in: uri("note.md"), character: 1) == ["2.md:0:10", "note.md:0:0", "far.md:0:0"])
    }

    /// Every place comes back however many there are, each once: a memo cited 20,000 times
    /// by an open note, by a memo's text and by closed files (many on one line, many lines).
    @Test func aMemoCitedTwentyThousandTimesHasEveryPlaceListedOnce() throws {
        try git("init", "-q")
        try project.write(String(repeating: "#1 ", count: 4_000), to: "dense.md")
        try project.write(String(repeating: "cites #1\n", count: 4_000), to: "lines.txt")
        let harness = try server()
        try harness.request("memo/add", ["content": "Many\n" + String(repeating: "#1 and\n", count: 2_000)])
        try harness.open(uri("note.md"), text: String(repeating: "see #1 here\n", count: 10_000))
        let found = places(harness, in: uri("note.md"), character: 5)
        #expect(found.count == 20_001)
        #expect(Set(found).count == found.count)
        #expect(found.filter { $0.hasPrefix("dense.md:") }.count == 4_000)
        #expect(
            found.contains("dense.md:0:11997") && found.contains("lines.txt:3999:6") && found.contains("3.md:2000:0"))
    }

    /// A file deleted with no report, or inside a folder reported deleted, is not listed.
    @Test func filesGoneFromDiskAreNeverListed() throws {
        try git("init", "-q")
        try FileManager.default.createDirectory(atPath: project.file("old/deep"), withIntermediateDirectories: true)
        try project.write("#1\n", to: "old/deep/e.txt")
        try project.write("#1\n", to: "plan.txt")
        let harness = try server(watching: true)
        try answerWatcherRegistration(harness)
        try harness.open(uri("note.md"), text: "#1\n")
        #expect(
            places(harness, in: uri("note.md"), character: 1) == [
                "2.md:0:10", "note.md:0:0", "e.txt:0:0", "plan.txt:0:0"
            ])
        try FileManager.default.removeItem(atPath: project.file("old"))
        _ = try harness.notify("workspace/didChangeWatchedFiles", ["changes": [["uri": uri("old"), "type": 3]]])
        try FileManager.default.removeItem(atPath: project.file("plan.txt"))
        #expect(places(harness, in: uri("note.md"), character: 1) == ["2.md:0:10", "note.md:0:0"])
        // Made again, the folder's files are found again.
        try FileManager.default.createDirectory(atPath: project.file("old/deep"), withIntermediateDirectories: true)
        try project.write("again #1\n", to: "old/deep/e.txt")
        _ = try harness.notify(
            "workspace/didChangeWatchedFiles", ["changes": [["uri": uri("old/deep/e.txt"), "type": 1]]])
        #expect(places(harness, in: uri("note.md"), character: 1) == ["2.md:0:10", "note.md:0:0", "e.txt:0:6"])
    }

    /// A git repository inside another, named as a workspace folder of its own, keeps its
    /// files when the outer folder (whose git does not list them) is listed again.
    @Test func aNestedRepositoryThatIsAFolderOfItsOwnKeepsItsFiles() throws {
        try git("init", "-q")
        try FileManager.default.createDirectory(atPath: project.file("nested"), withIntermediateDirectories: true)
        try git("init", "-q", in: "nested")
        try project.write("#1 nested\n", to: "nested/n.md")
        try project.write("#1 outer\n", to: "p.md")
        let harness = try server(alsoFolders: ["nested"])
        try harness.open(uri("note.md"), text: "#1\n")
        #expect(
            places(harness, in: uri("note.md"), character: 1) == ["2.md:0:10", "note.md:0:0", "n.md:0:0", "p.md:0:0"])
        try project.write("#1 new\n", to: "new.md")
        #expect(
            places(harness, in: uri("note.md"), character: 1) == [
                "2.md:0:10", "note.md:0:0", "n.md:0:0", "new.md:0:0", "p.md:0:0"
            ])
        _ = try harness.notify(
            "workspace/didChangeWorkspaceFolders",
            ["event": ["added": [], "removed": [["uri": uri("nested"), "name": "nested"]]]])
        #expect(
            places(harness, in: uri("note.md"), character: 1) == ["2.md:0:10", "note.md:0:0", "new.md:0:0", "p.md:0:0"])
    }

    /// Editors drop a UTF-8 byte-order mark: a closed file's first line is counted without it.
    @Test func aClosedFilesByteOrderMarkIsNotCounted() throws {
        try git("init", "-q")
        try project.write("\u{FEFF}😀 emoji #1\r\nnext #1\n", to: "bom.md")
        let harness = try server()
        try harness.open(uri("note.md"), text: "#1\n")
        #expect(
            places(harness, in: uri("note.md"), character: 1) == [
                "2.md:0:10", "note.md:0:0", "bom.md:0:9", "bom.md:1:5"
            ])
    }
}
