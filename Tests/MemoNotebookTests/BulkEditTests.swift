import MemoNotebookTestSupport
import MemoStore
import MemoTestSupport
import Testing

@testable import MemoNotebook

/// `edit` with filters and no id (docs/REFERENCE.md, Editing several memos at once): the
/// selected memos in one buffer, saved as one change, or, when the buffer cannot be applied,
/// nothing changed and the saved text kept.
@Suite("Editing several memos at once")
struct BulkEditTests {
    /// Memos 1 to 3 tagged @work (newest first in the buffer), and 4 not.
    func session() throws -> ScriptedNotebook {
        let session = try ScriptedNotebook()
        try session.run(["add first @work", "add second @work", "add third @work", "add other @home"])
        return session
    }

    func texts(_ session: ScriptedNotebook) throws -> [Int64: String] {
        guard case .memos(let cursor, _, _) = try session.notebook.execute(.list(.defaults)) else { return [:] }
        return Dictionary(uniqueKeysWithValues: try cursor.collect().map { ($0.id, $0.content) })
    }

    /// The buffer's sections: the comment, then each header line with the text under it.
    static func sections(of buffer: String) -> [String] {
        var sections: [String] = []
        // Cut at line feeds by scalars: a text's CR before one is no line break of the buffer.
        for scalars in buffer.unicodeScalars.split(separator: "\n", omittingEmptySubsequences: false).dropLast() {
            let line = String(String.UnicodeScalarView(scalars))
            if line.hasPrefix("%% ") || sections.isEmpty { sections.append("") }
            sections[sections.count - 1] += line + "\n"
        }
        return sections
    }

    /// `buffer` with memo `id`'s section given to `change` (nil removes it).
    static func changing(_ id: Int64, in buffer: String, _ change: (String) -> String?) -> String {
        sections(of: buffer).compactMap { $0.hasPrefix("%% #\(id) ") ? change($0) : $0 }.joined()
    }

    static func header(of section: String) -> String { String(section.prefix { $0 != "\n" }) }

    @Test func changedTextsAreEditedGoneHeadersDeletedAndNewTextsAddedAsOneChange() throws {
        let session = try session()
        let before = try texts(session)
        let editor = ScriptedEditor { buffer in
            var saved = Self.changing(2, in: buffer) {
                BulkEditBuffer.section(header: Self.header(of: $0), text: "SECOND @work")
            }
            saved = Self.changing(1, in: saved) { _ in nil }
            return saved + "%% new\nadded one\n%% new\n \n"
                + BulkEditBuffer.section(header: "%% new", text: "%% #looks like a header")
        }
        session.notebook.missingTextSource = editor
        #expect(try session.run("edit --tag work") == "edited #2; deleted #1; added #5 #6\n")
        #expect(editor.opened.count == 1)
        #expect(
            Self.sections(of: editor.opened[0]).dropFirst().map(Self.header).map { $0.prefix(5) } == [
                "%% #3", "%% #2", "%% #1"
            ])
        #expect(
            try texts(session) == [
                2: "SECOND @work", 3: "third @work", 4: "other @home", 5: "added one", 6: "%% #looks like a header"
            ])
        let history = try session.run("history")
        #expect(history.split(separator: "\n").count == 5)
        #expect(history.split(separator: "\n").first?.contains("bulk-edit  4 memos") == true)
        #expect(try session.run("undo").hasPrefix("undid change 5 (bulk-edit "))
        #expect(try texts(session) == before)
        #expect(try session.run("redo").hasPrefix("redid change 5"))
        #expect(try texts(session)[5] == "added one")
    }

    @Test func anUnchangedBufferChangesNothing() throws {
        let session = try session()
        session.notebook.missingTextSource = ScriptedEditor { $0 }
        #expect(try session.run("edit --tag work") == "nothing changed: the 3 memos are as they were\n")
        #expect(try session.run("history -n 1").contains("add "))
    }

    @Test func nothingSelectedOpensNoEditor() throws {
        let session = try session()
        let editor = ScriptedEditor { $0 }
        session.notebook.missingTextSource = editor
        #expect(try session.run("edit --tag nowhere") == "nothing to edit: no memo matches\n")
        #expect(editor.opened.isEmpty)
    }

    @Test func theFiltersOrderAndLimitOfListSelectTheMemos() throws {
        let session = try session()
        let editor = ScriptedEditor { $0 }
        session.notebook.missingTextSource = editor
        try session.run("edit --tag work --asc -n 2")
        #expect(Self.sections(of: editor.opened[0]).dropFirst().map { $0.prefix(5) } == ["%% #1", "%% #2"])
    }

    @Test func anExplicitListOfIdsOpensThoseMemosInThatOrder() throws {
        let session = try session()
        let editor = ScriptedEditor { buffer in Self.changing(4, in: buffer) { _ in nil } }
        session.notebook.missingTextSource = editor
        guard case .bulkEdited(let summary) = try session.notebook.execute(.editMany(.ids([4, 2, 4]))) else {
            Issue.record("the picked memos were not edited")
            return
        }
        #expect(summary == BulkEditSummary(deleted: [4]))
        #expect(Self.sections(of: editor.opened[0]).dropFirst().map { $0.prefix(5) } == ["%% #4", "%% #2"])
        #expect(throws: StoreError.memoNotFound([9])) { try session.notebook.execute(.editMany(.ids([1, 9]))) }
    }

    /// Each of these refuses the whole save: nothing changes, no history entry is written, and
    /// the saved buffer is kept in a file the error names.
    @Test(arguments: [
        ("%% #4 names a memo not opened\nx\n", "the header '%% #4' names a memo that was not in the buffer"),
        ("%% #3 twice\nagain\n", "memo #3 has a second header"),
        ("%% 3 a malformed header\nx\n", "is not a header"),
        ("%% #3 kept without text\n", "memo #3 has no text (remove its header too to delete it)")
    ])
    func aBufferThatCannotBeAppliedChangesNothingAndIsKept(_ appended: String, _ reason: String) throws {
        let session = try session()
        let before = try texts(session), history = try session.run("history")
        let editor = ScriptedEditor { buffer in
            var saved = Self.changing(2, in: buffer) {
                BulkEditBuffer.section(header: Self.header(of: $0), text: "typed")
            }
            if reason.contains("no text") { saved = Self.changing(3, in: saved) { _ in nil } }
            return saved + appended
        }
        session.notebook.missingTextSource = editor
        do {
            try session.run("edit --tag work")
            Issue.record("the buffer was applied")
        } catch let error as CommandError {
            #expect(error.message.contains(reason))
            #expect(error.message.hasSuffix("; nothing changed: the edited text is kept in /kept/1"))
        }
        #expect(editor.kept.count == 1)
        #expect(editor.kept.first?.contains("\ntyped\n") == true)
        #expect(try texts(session) == before)
        #expect(try session.run("history") == history)
    }

    /// Another process saves one of the opened memos while the editor is open: the check, in
    /// the write's own transaction, refuses the whole save and keeps the buffer.
    @Test(arguments: ["edit 2 changed elsewhere", "delete 3", "tag 1 elsewhere"])
    func aMemoChangedByAnotherProcessMeanwhileRefusesTheWholeSave(_ meanwhile: String) throws {
        let folder = TemporaryFolder()
        let session = try ScriptedNotebook(file: folder.path + "/store.sqlite")
        try session.run(["add first @work", "add second @work", "add third @work"])
        let other = try ScriptedNotebook(file: folder.path + "/store.sqlite")
        let editor = ScriptedEditor { buffer in
            try other.run(meanwhile)
            return Self.changing(1, in: buffer) { BulkEditBuffer.section(header: Self.header(of: $0), text: "typed") }
        }
        session.notebook.missingTextSource = editor
        let after = { try self.texts(session) }
        if meanwhile.hasPrefix("tag") {
            // Tags are not in the buffer: a tag added meanwhile is kept, and the text is saved.
            #expect(try session.run("edit --tag work") == "edited #1\n")
            #expect(try session.run("show 1").contains("@elsewhere"))
            return
        }
        let changed = meanwhile.hasPrefix("edit") ? "#2 was" : "#3 was"
        #expect(
            throws: CommandError.invalid(
                "\(changed) changed by someone else while the editor was open; nothing changed: the edited text is kept in /kept/1"
            )
        ) { try session.run("edit --tag work") }
        #expect(try after()[1] == "first @work")
        #expect(editor.kept.first?.contains("\ntyped\n") == true)
        #expect(try session.run("history -n 1").contains(meanwhile.hasPrefix("edit") ? "edit " : "delete "))
    }

    @Test func anEditorThatFailsChangesNothing() throws {
        let session = try session()
        let before = try texts(session)
        session.notebook.missingTextSource = ScriptedEditor { _ in
            throw CommandError.invalid("the editor 'false' failed (exit status 1); nothing changed")
        }
        #expect(throws: CommandError.invalid("the editor 'false' failed (exit status 1); nothing changed")) {
            try session.run("edit --tag work")
        }
        #expect(try texts(session) == before)
    }

    /// Scripts and the server have no editor: `edit` without an id is refused there, saying
    /// that it needs one, as `today` is.
    @Test func withoutAnEditorItIsRefusedSayingSo() throws {
        let session = try session()
        #expect(throws: CommandError.usage("'edit' needs the new text")) { try session.run("edit 1") }
        #expect(
            throws: CommandError.usage(
                "'edit' needs an editor, which scripts and the server do not have: edit ID TEXT, one memo at a time")
        ) { try session.run("edit --tag work") }
    }

    @Test(arguments: [
        ("edit", "'edit' needs a memo id, or filters that select memos (edit --tag TAG)"),
        ("edit --asc", "'edit' needs a memo id, or filters that select memos (edit --tag TAG)"),
        ("edit --tag work <<END", "'edit' without an id takes no heredoc: it opens the editor"),
        // After the id, selection options are no options of `edit ID`: its text may hold -n 5.
        (
            "edit 1 text --tag work",
            "'edit ID' takes no '--tag': filters select the memos of 'edit' without an id (write -- before a text that holds it)"
        ),
        ("edit --tag work 1", "'edit ID' takes no '--tag': filters select the memos of 'edit' without an id")
    ])
    func editWithoutIdNeedsFiltersAndEditWithAnIdTakesNone(_ line: String, _ message: String) {
        let heredoc = line.hasSuffix("<<END") ? "text" : nil
        let error = #expect(throws: CommandError.self) { try CommandParser.parse(line: line, heredoc: heredoc) }
        #expect(error?.message == message)
    }

    @Test func theSelectionOptionsParse() throws {
        var expected = ListArguments(order: .oldestFirst, limit: 3)
        expected.filter.tags = ["work"]
        expected.filter.isOrphan = true
        #expect(
            try CommandParser.parse(line: "edit --tag Work --orphan --asc -n 3")
                == .command(.editMany(.listed(expected))))
    }

    /// Random edits of the buffer (kept, rewritten, removed, reordered sections, new ones,
    /// comments) apply exactly as a model of the rules says, and one undo takes them back.
    @Test func randomEditsOfTheBufferApplyAsTheModelSays() throws {
        for seed in PropertySeeds.seeds(standard: 30) {
            var random = SeededRandom(seed: seed)
            let session = try ScriptedNotebook()
            let pool = BulkEditBufferTests.awkwardTexts
            func randomText() -> String {
                let text = (0...random.next(2)).map { _ in pool[random.next(pool.count)] }.joined(
                    separator: random.next(2) == 0 ? "\n" : " ")
                // A memo's text is never blank (a blank one is refused: `emptyText`).
                return text.allSatisfy(\.isWhitespace) ? text + "x" : text
            }
            let count = 1 + random.next(8)
            for _ in 0..<count {
                _ = try session.notebook.execute(.add(text: randomText(), tags: []))
            }
            let before = try texts(session)
            let picked = before.keys.filter { _ in random.next(3) > 0 }.sorted()
            var expected = before
            var nextID = Int64(count) + 1
            let editor = ScriptedEditor { buffer in
                var sections = Self.sections(of: buffer)
                let guide = sections.removeFirst()
                var saved: [String] = []
                for section in sections {
                    let id = Int64(section.dropFirst(4).prefix { $0.isNumber })!
                    switch random.next(4) {
                    case 0: expected[id] = nil
                    case 1:
                        let text = randomText()
                        expected[id] = text
                        saved.append(BulkEditBuffer.section(header: Self.header(of: section), text: text))
                    default: saved.append(section)
                    }
                }
                for _ in 0..<random.next(3) {
                    let text = random.next(4) == 0 ? " \n\t" : randomText()
                    saved.insert(BulkEditBuffer.section(header: "%% new", text: text), at: random.next(saved.count + 1))
                }
                if random.next(3) == 0 { saved.insert("%%% a comment\n", at: random.next(saved.count + 1)) }
                saved.shuffle(using: &random)
                // New memos are added in the order their headers stand.
                for section in saved where section.hasPrefix("%% new\n") {
                    guard let text = try BulkEditBuffer.read(section).first, case .new(let added) = text,
                        !added.allSatisfy(\.isWhitespace)
                    else { continue }
                    expected[nextID] = added
                    nextID += 1
                }
                return guide + saved.joined()
            }
            session.notebook.missingTextSource = editor
            let result = Result { try session.notebook.execute(.editMany(.ids(picked))) }
            if picked.isEmpty {
                #expect(editor.opened.isEmpty, "seed \(seed)")
                continue
            }
            if case .failure(let error) = result {
                // Only a buffer left with no header at all is refused.
                #expect("\(error)".hasPrefix("the buffer holds no header"), "seed \(seed): \(error)")
                #expect(try texts(session) == before, "seed \(seed)")
                continue
            }
            #expect(try texts(session) == expected, "seed \(seed)")
            if expected != before {
                _ = try session.notebook.execute(.undo)
                #expect(try texts(session) == before, "seed \(seed): one undo takes it all back")
            }
        }
    }

    /// A refused buffer kept, then given again on standard input (the natural retry): a
    /// section of a memo changed since the buffer was written is refused, not written back.
    @Test func aKeptBufferGivenAgainRefusesMemosChangedSinceItWasWritten() throws {
        let folder = TemporaryFolder()
        let session = try ScriptedNotebook(file: folder.path + "/store.sqlite")
        try session.run(["add first @work", "add second @work"])
        let other = try ScriptedNotebook(file: folder.path + "/store.sqlite")
        let editor = ScriptedEditor { buffer in
            try other.run("edit 2 changed elsewhere @work")
            return Self.changing(1, in: buffer) {
                BulkEditBuffer.section(header: Self.header(of: $0), text: "typed @work")
            }
        }
        session.notebook.missingTextSource = editor
        #expect(throws: CommandError.self) { try session.run("edit --tag work") }
        let kept = try #require(editor.kept.first)
        let retry = ScriptedEditor { _ in kept }
        retry.isStandardInput = true
        session.notebook.missingTextSource = retry
        #expect(
            throws: CommandError.invalid(
                "#2 was changed since the buffer was written (its header names an older version); "
                    + "nothing changed: the edited text is kept in /kept/1")
        ) { try session.run("edit --tag work") }
        #expect(try texts(session) == [1: "first @work", 2: "changed elsewhere @work"])
        // Its section taken out, the retry edits #1 alone, and leaves #2 as it is now.
        let fixed = ScriptedEditor { _ in Self.changing(2, in: kept) { _ in nil } }
        fixed.isStandardInput = true
        session.notebook.missingTextSource = fixed
        #expect(try session.run("edit --tag work") == "edited #1\n")
        #expect(try texts(session) == [1: "typed @work", 2: "changed elsewhere @work"])
    }

    /// A buffer on standard input names what it changes: a memo it leaves out stays, and a
    /// header without a version (typed by hand) stands for the memo as it is now.
    @Test func aPartialBufferOnStandardInputDeletesNothing() throws {
        let session = try session()
        let piped = ScriptedEditor { _ in "%% #1\nchanged @work\n%% new\nadded\n" }
        piped.isStandardInput = true
        session.notebook.missingTextSource = piped
        #expect(try session.run("edit --tag work") == "edited #1; added #5\n")
        #expect(
            try texts(session) == [
                1: "changed @work", 2: "second @work", 3: "third @work", 4: "other @home", 5: "added"
            ])
    }

    /// Saved unchanged, a bulk edit says so in words that fit one memo or several, and in
    /// JSON gives the documented object, its arrays empty.
    @Test func nothingChangedReadsRightForOneMemoAndInJSON() throws {
        let session = try session()
        session.notebook.missingTextSource = ScriptedEditor { $0 }
        #expect(try session.run("edit --tag home") == "nothing changed: the memo is as it was\n")
        #expect(try session.json("edit --tag work") == #"{"edited":[],"deleted":[],"added":[]}"# + "\n")
    }

    /// Texts whose lines end in CR, saved unchanged, change nothing.
    @Test(arguments: ["abc\r", "line\r\n\r", "a\r\n\r\n", "a\r\n", "\r%% x\r"])
    func aTextEndingInCRSavedUnchangedChangesNothing(_ text: String) throws {
        let session = try ScriptedNotebook()
        _ = try session.notebook.execute(.add(text: text, tags: ["x"]))
        session.notebook.missingTextSource = ScriptedEditor { $0 }
        #expect(try session.run("edit --tag x") == "nothing changed: the memo is as it was\n")
        #expect(try texts(session) == [1: text])
    }

    /// An indented header (an editor's autoindent) heads its memo: nothing is deleted or glued.
    @Test func anIndentedHeaderHeadsItsMemo() throws {
        let session = try session()
        session.notebook.missingTextSource = ScriptedEditor { buffer in
            Self.changing(2, in: buffer) { "  " + $0 }
        }
        #expect(try session.run("edit --tag work") == "nothing changed: the 3 memos are as they were\n")
    }

    /// Options of `edit` without an id given to `edit ID` are refused saying what they are for.
    @Test(arguments: ["edit 1 --date 2024-01-01 --tag x", "edit --tag x 1"])
    func filtersGivenToEditIDSayTheySelectMemos(_ line: String) throws {
        let error = #expect(throws: CommandError.self) { try CommandParser.parse(line: line) }
        #expect(error?.message == "'edit ID' takes no '--tag': filters select the memos of 'edit' without an id")
    }
}
