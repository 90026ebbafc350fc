import MemoNotebookTestSupport
import MemoTestSupport
import Testing

@testable import MemoNotebook
@testable import MemoStore

/// `tag --rename OLD NEW` (docs/REFERENCE.md, Tags): every memo's tag, explicit or inline in
/// its text, in one change that undo takes back and a sync carries.
@Suite("Renaming a tag")
struct TagRenameTests {
    let scratch = TemporaryFolder()

    func show(_ session: ScriptedNotebook, _ id: Int) throws -> String {
        try session.run("show \(id)")
    }

    /// Only whole tag words, by the one inline rule: `@OLDER`, `a@old.com` and `x@old` stay.
    @Test(arguments: [
        ("@old", "@new"), ("a @old b", "a @new b"), ("@Old, (@OLD) @old.", "@new, (@new) @new."),
        ("@older @old-er @old_x", "@older @old-er @old_x"), ("mail a@old.com x@old", "mail a@old.com x@old"),
        ("@old@old", "@new@old"), ("\"@old\" 'x'", "\"@new\" 'x'"), ("no tag", "no tag"),
        ("@Café @café", "@Café @café")
    ])
    func theInlineRuleDecidesWhatIsRewritten(_ text: String, _ renamed: String) {
        #expect(TagName.renaming("old", to: "new", in: text) == renamed)
        #expect(TagName.renaming("café", to: "x", in: "@Cafe\u{301} @café!") == "@x @x!")
    }

    @Test func explicitAndInlineTagsAreRenamedInOneChangeThatUndoTakesBack() throws {
        let session = try ScriptedNotebook()
        try session.run([
            "add inline @work and @Work, not @worker or me@work.org", "add explicit --tag work",
            "add both @work --tag work", "add already @job --tag work", "add untouched @home"
        ])
        let before = try session.dump(), history = try session.run("history")
        #expect(try session.run("tag --rename work job") == "renamed @work to @job on 4 memos\n")
        #expect(
            try show(session, 1).hasSuffix(
                "tags:     @job @worker\n\ninline @job and @job, not @worker or me@work.org\n"))
        #expect(try show(session, 2).contains("tags:     @job\n\nexplicit\n"))
        #expect(try show(session, 3).contains("tags:     @job\n\nboth @job\n"))
        #expect(try show(session, 4).contains("tags:     @job\n\nalready @job\n"))
        #expect(try session.run("tags") == "@home    1\n@job     4\n@worker  1\n")
        #expect(try session.run("list --tag job").split(separator: "\n").count == 4)
        #expect(try session.run("history").split(separator: "\n").count == history.split(separator: "\n").count + 1)
        #expect(try session.run("history -n 1").contains("rename-tag  4 memos"))
        #expect(try session.run("undo").hasPrefix("undid change 6 (rename-tag "))
        #expect(try session.dump() == before)
    }

    @Test func anUnknownOldTagAndAnInvalidNewNameAreRefused() throws {
        let session = try ScriptedNotebook()
        try session.run("add one @work")
        #expect(throws: StoreError.refused(.unknownTag("nope"))) { try session.run("tag --rename Nope x") }
        #expect("\(StoreRefusal.unknownTag("nope"))" == "no memo has the tag @nope: nothing renamed")
        // The message `tag ID b/c` gives.
        for line in ["tag --rename work b/c", "tag 1 b/c"] {
            let error = #expect(throws: CommandError.self) { try session.run(line) }
            #expect(error?.message == "invalid tag 'b/c': use letters, digits, '_' and '-'")
        }
        #expect(throws: CommandError.usage("'tag' needs the tag to rename and its new name (tag --rename OLD NEW)")) {
            try session.run("tag --rename work")
        }
        #expect(throws: CommandError.self) { try session.run("tag --rename a b c") }
        #expect(try session.run("tags") == "@work  1\n")
    }

    /// The other store gets the new texts and tags at the next sync, an explicit tag's
    /// removal included.
    @Test func aSyncCarriesTheRename() throws {
        let a = try ScriptedNotebook(file: scratch.path + "/a.sqlite")
        let b = try ScriptedNotebook(file: scratch.path + "/b.sqlite")
        try a.run(["add inline @work", "add explicit --tag work", "add other @home"])
        try a.run("sync \(scratch.path)/b.sqlite")
        #expect(try b.run("tags") == "@home  1\n@work  2\n")
        try a.run("tag --rename work job")
        try a.run("sync \(scratch.path)/b.sqlite")
        #expect(try b.run("tags") == "@home  1\n@job   2\n")
        #expect(try b.dump() == a.dump())
        #expect(try b.run("search inline").contains("inline @job"))
    }
}

/// What completion, `--json` and the command table give for the two commands.
@Suite("Bulk edit and rename: completion, JSON")
struct BulkEditAndRenameFacesTests {
    @Test func completionOffersTheirOptionsAndTags() throws {
        let session = try ScriptedNotebook()
        try session.run(["add one @work", "add two @home"])
        let completer = Completer(data: session.notebook)
        let texts = { (line: String) in completer.complete(line).items.map(\.text) }
        #expect(
            texts("edit --") == [
                "--date", "--interactive", "--asc", "--desc", "--limit", "--offset", "--tag", "--since", "--until",
                "--on",
                "--links-to", "--linked-from", "--orphan", "--fixed-strings"
            ])
        #expect(texts("edit --tag w") == ["work"])
        #expect(texts("tag --r") == ["--rename"])
        #expect(texts("tag --rename h") == ["home"])
    }

    @Test func jsonSaysWhatChanged() throws {
        let session = try ScriptedNotebook()
        try session.run(["add one @work", "add two @work"])
        #expect(try session.json("tag --rename work job") == #"{"renamed":"work","to":"job","memos":2}"# + "\n")
        session.notebook.missingTextSource = ScriptedEditor { buffer in
            BulkEditTests.changing(1, in: buffer) { _ in nil } + "%% new\nthree\n"
        }
        #expect(try session.json("edit --tag job") == #"{"edited":[],"deleted":[1],"added":[3]}"# + "\n")
    }
}
