import Foundation
import MemoTestSupport
import Testing

@testable import MemoServer

/// The server's `memo/execute` runs `import` as any face does: a folder of notes and a jrnl
/// export, with the summary that names them.
@Suite("Imports through memo/execute")
struct NoteImportExecuteTests {
    let scratch = TemporaryFolder()

    @Test func aFolderOfNotesAndAJrnlExportImportThroughTheServer() throws {
        let harness = try ServerHarness.initialized()
        func execute(_ line: String) throws -> String? {
            try harness.request("memo/execute", ["line": line]).result?["output"] as? String
        }
        try FileManager.default.createDirectory(atPath: scratch.file("notes/.zk"), withIntermediateDirectories: true)
        try scratch.write("---\ndate: 2024-03-01\ntags: [a]\n---\n# Note\n", to: "notes/note.md")
        let jrnl = try scratch.write(
            "{\"tags\": {}, \"entries\": [{\"title\": \"Entry.\", \"body\": \"\", \"date\": \"2024-03-01\", "
                + "\"time\": \"09:00\", \"tags\": [], \"starred\": true}]}\n", to: "export.json")
        #expect(
            try execute("import \(scratch.file("notes"))")
                == "imported 1 record from 1 Markdown note in \(scratch.file("notes")): 1 added, 0 updated, 0 skipped\n"
        )
        #expect(
            try execute("import \(jrnl)") == "imported 1 record from a jrnl export: 1 added, 0 updated, 0 skipped\n")
        #expect(
            try execute("import \(jrnl)")
                == "imported 1 record from a jrnl export: 0 added, 0 updated, 1 skipped (1 already in the store)\n")
        #expect(try execute("count --tag starred") == "1\n")
    }
}
