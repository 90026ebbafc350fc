import Foundation
import MemoNotebookTestSupport
import MemoStore
import MemoTestSupport
import Testing

@testable import MemoNotebook

/// Templates (docs/REFERENCE.md, Templates): placeholders filled on the session's clock in the
/// display time zone, the folder the environment names, and names that stay inside it.
@Suite("Templates")
struct TemplateTests {
    /// 2024-03-01T20:30:45Z: a Friday in UTC, already Saturday morning in Tokyo.
    static let instant = Timestamp(secondsSince1970: 1_709_325_045)
    static let tokyo = DisplayTime(timeZone: TimeZone(identifier: "Asia/Tokyo")!)

    @Test func placeholdersAreFilledInTheDisplayTimeZone() {
        let template = "# {{weekday}} {{date}} {{time}}: {{title}}\n"
        let utc = TemplateText(at: Self.instant, in: .utc, title: "Weekly sync").fill(template)
        #expect(utc == "# Friday 2024-03-01 20:30: Weekly sync\n")
        let tokyo = TemplateText(at: Self.instant, in: Self.tokyo, title: "").fill(template)
        #expect(tokyo == "# Saturday 2024-03-02 05:30: \n")
    }

    @Test func otherBracesStayAsWritten() {
        let text = TemplateText(at: Self.instant, in: .utc, title: "{{date}} as typed")
        #expect(
            text.fill("{{ date }} {{unknown}} {{Date}} {{{time}}} {{date")
                == "2024-03-01 {{unknown}} {{Date}} {20:30} {{date")
        #expect(text.fill("{{title}}") == "{{date}} as typed", "a value is not filled again")
        #expect(text.fill("{{}} }} {") == "{{}} }} {")
    }

    @Test func theFolderIsXDGConfigHomesElseHomes() {
        func folder(_ variables: [String: String]) -> String? {
            TemplateFolder(environment: Environment(variables))?.path
        }
        #expect(folder(["XDG_CONFIG_HOME": "/x/config", "HOME": "/home/u"]) == "/x/config/memo/templates")
        #expect(folder(["HOME": "/home/u"]) == "/home/u/.config/memo/templates")
        // The XDG specification: a relative or empty path is ignored.
        #expect(folder(["XDG_CONFIG_HOME": "config", "HOME": "/home/u"]) == "/home/u/.config/memo/templates")
        #expect(folder(["XDG_CONFIG_HOME": "", "HOME": "/home/u"]) == "/home/u/.config/memo/templates")
        #expect(folder(["XDG_CONFIG_HOME": "rel"]) == nil)
        #expect(folder([:]) == nil)
    }

    @Test func theWordsAfterTheNameAreTheTitle() throws {
        let meeting = try #require(TemplateName("meeting"))
        #expect(
            try CommandParser.parse(arguments: ["add", "--template", "meeting", "Weekly", "sync", "--tag", "work"])
                == .addFromTemplate(meeting, title: "Weekly sync", tags: ["work"]))
        #expect(
            try CommandParser.parse(line: "add --template=meeting")
                == .command(.addFromTemplate(meeting, title: "", tags: [])))
    }

    @Test func aNameCannotLeaveTheFolder() throws {
        for name in ["../x", "/etc/passwd", "a/b", "..", ".", ".hidden", ""] {
            #expect(TemplateName(name) == nil, "\(name)")
        }
        #expect(TemplateName("meeting")?.text == "meeting")
        for name in ["../x", "/etc/passwd"] {
            let refusal = #expect(throws: CommandError.self) {
                try CommandParser.parse(arguments: ["add", "--template", name])
            }
            #expect(
                refusal?.message
                    == "invalid template name '\(name)': the name of a file in the templates folder (no '/', not starting with '.')"
            )
        }
    }

    @Test func completionOffersTheTemplatesAfterTemplate() throws {
        let folder = TemporaryFolder()
        try folder.write("", to: "meeting")
        try folder.write("", to: "daily")
        let session = try ScriptedNotebook()
        let completer = Completer(data: session.notebook)
        #expect(completer.complete("add --template ").items.isEmpty, "no folder known")
        session.notebook.templates = TemplateFolder(path: folder.path)
        #expect(completer.complete("add --template ").items.map(\.text) == ["daily", "meeting"])
        #expect(completer.complete("add x --tag a --template m").items.map(\.text) == ["meeting"])
        #expect(completer.complete("list --template ").items.isEmpty, "an option of add only")
    }

    @Test func theFolderListsItsTemplates() throws {
        let folder = TemporaryFolder()
        try folder.write("", to: "meeting")
        try folder.write("", to: "daily")
        try folder.write("", to: ".meeting.swp")
        try FileManager.default.createDirectory(atPath: folder.file("archive"), withIntermediateDirectories: false)
        let templates = TemplateFolder(path: folder.path)
        #expect(templates.names() == ["daily", "meeting"])
        #expect(TemplateFolder(path: folder.file("missing")).names() == [])
        #expect(
            templates.missing(TemplateName("standup")!)
                == .invalid("no template 'standup' in \(folder.path) (templates there: daily, meeting)"))
        #expect(
            TemplateFolder(path: folder.file("missing")).missing(TemplateName("standup")!)
                == .invalid("no template 'standup' in \(folder.file("missing")) (the folder does not exist)"))
        let empty = folder.file("archive")
        #expect(
            TemplateFolder(path: empty).missing(TemplateName("standup")!)
                == .invalid("no template 'standup' in \(empty) (it holds no templates)"))
    }
}

/// `add --template NAME`: the editor starts on the template filled in at the session's clock.
@Suite("add --template")
struct AddFromTemplateTests {
    let folder = TemporaryFolder()
    let session: ScriptedNotebook

    init() throws {
        session = try ScriptedNotebook()
        session.notebook.templates = TemplateFolder(path: folder.path)
        try folder.write("# {{title}}\n{{weekday}} {{date}} {{time}}\n\n", to: "meeting")
    }

    @Test func theEditorStartsOnTheFilledTemplateAndTheTagsApply() throws {
        let editor = ScriptedEditor { $0 + "notes @inline" }
        session.notebook.missingTextSource = editor
        try session.run("clock 2024-03-01T09:15:30Z")
        #expect(try session.run("add --template meeting Weekly sync --tag work") == "added #1\n")
        #expect(editor.opened == ["# Weekly sync\nFriday 2024-03-01 09:15\n"])
        #expect(
            try session.run("show 1").contains(
                "tags:     @inline @work\n\n# Weekly sync\nFriday 2024-03-01 09:15\nnotes @inline\n"))
    }

    @Test func anUnchangedOrEmptiedTemplateAddsNothing() throws {
        session.notebook.missingTextSource = ScriptedEditor { $0 }
        #expect(throws: CommandError.invalid("nothing added: the template 'meeting' was saved unchanged")) {
            try session.run("add --template meeting")
        }
        session.notebook.missingTextSource = ScriptedEditor { _ in "\n" }
        #expect(throws: CommandError.invalid("nothing added: the text is empty")) {
            try session.run("add --template meeting")
        }
        #expect(try session.run("count") == "0\n")
        #expect(try session.run("history") == "")
    }

    @Test func anUnknownTemplateNamesTheFolderAndItsTemplates() throws {
        let editor = ScriptedEditor { $0 + "x" }
        session.notebook.missingTextSource = editor
        #expect(throws: CommandError.invalid("no template 'standup' in \(folder.path) (templates there: meeting)")) {
            try session.run("add --template standup")
        }
        #expect(editor.opened.isEmpty, "no editor opens")
    }

    @Test func aTemplateThatIsNoTextFailsAsSuchAFileDoes() throws {
        session.notebook.missingTextSource = ScriptedEditor { $0 + "x" }
        #expect(FileManager.default.createFile(atPath: folder.file("binary"), contents: Data([0x66, 0xFF, 0x0A])))
        #expect(throws: CommandError.invalid("cannot read \(folder.file("binary")): it is not valid UTF-8 text")) {
            try session.run("add --template binary")
        }
        try folder.write(String(repeating: "a", count: MemoContent.maximumBytes + 1), to: "big")
        #expect(throws: StoreError.invalidContent("memo text is 1048577 bytes; the limit is 1048576 (1 MiB)")) {
            try session.run("add --template big")
        }
        #expect(try session.run("count") == "0\n")
    }

    /// Scripts and the server have no editor: refused as `add` without text is there.
    @Test func withoutAnEditorItIsAUsageError() throws {
        #expect(
            throws: CommandError.usage(
                "'add --template' needs an editor, which scripts and the server do not have: give the text: add TEXT")
        ) { try session.run("add --template meeting") }
        #expect(
            throws: CommandError.usage(
                "'add --template' takes a title on the line, not a heredoc: the text is written in the editor")
        ) { try CommandParser.parse(line: "add --template meeting <<END", heredoc: "text\n") }
    }
}
