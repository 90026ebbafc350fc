import MemoNotebookTestSupport
import MemoStore
import Testing

@testable import MemoNotebook

@Suite("Completion")
struct CompleterTests {
    let completer: Completer

    init() throws {
        let notebook = try ScriptedNotebook().notebook
        _ = try notebook.load(Fixture.resolve("sample"))
        completer = Completer(data: notebook)
    }

    private func texts(_ line: String) -> [String] {
        completer.complete(line).items.map(\.text)
    }

    @Test(arguments: [
        (
            "",
            [
                "add", "list", "search", "show", "edit", "delete", "rm", "tag", "untag", "tags", "count", "graph",
                "links",
                "begin", "save", "commit",
                "rollback", "undo", "redo", "history", "sync", "import", "export", "fixture", "fixtures", "clock",
                "info", "help", "quit", "exit", "today", "pick", "calendar", "stats"
            ]
        ),
        ("tod", ["today"]),
        ("add --t", ["--tag", "--template"]),
        ("calendar --y", ["--year"]),
        ("stats -", ["--tag", "--since", "--until", "--on", "--links-to", "--linked-from", "--orphan"]),
        ("calendar --tag wo", ["work"]),
        ("stats --linked-from 2", ["2", "20"]),
        ("se", ["search"]),
        ("export x --f", ["--format"]),
        ("import notes --format ", ["jsonl", "json", "markdown", "coredata", "jrnl"]),
        ("import export.json --format j", ["jsonl", "json", "jrnl"]),
        ("export x --format ", ["jsonl", "json", "markdown"]),
        ("graph --format ", ["dot", "json"]),
        ("graph --direction ", ["LR", "TB", "RL", "BT"]),
        ("graph --li", ["--linked", "--links-to", "--linked-from"]),
        ("ta", ["tag", "tags"]),
        ("list --a", ["--asc"]),
        ("count -", ["--tag", "--since", "--until", "--on", "--links-to", "--linked-from", "--orphan"]),
        ("list --tag wo", ["work"]),
        ("add --d", ["--date"]),
        ("edit 3 --", ["--date"]),
        ("add Call @wo", ["@work"]),
        ("add Call @WO", ["@work"]),
        ("count --tag TRA", ["travel"]),
        ("body text in a heredoc @jou", ["@journal"]),
        ("tag 3 st", ["study"]),
        ("fixture s", ["sample"]),
        ("help fix", ["fixture", "fixtures"]),
        ("show 1", ["1", "10", "11", "12", "13", "14", "15", "16", "17", "18", "19"]),
        ("edit #2", ["#2", "#20"]),
        ("list --links-to 1", ["1", "10", "11", "12", "13", "14", "15", "16", "17", "18", "19"]),
        ("graph --linked-from #2", ["#2", "#20"]),
        ("links #2", ["#2", "#20"]),
        ("edit 2 ", []),
        ("frobnicate ", []),
        ("show x", []),
        ("pi", ["pick"]),
        ("list --i", ["--ids"]),
        ("search --id", ["--ids"]),
        ("rm --inter", ["--interactive"]),
        ("pick --ta", ["--tag"]),
        ("tag -i st", ["study"]),
        ("delete -i 1", []),
        ("show --interactive --links-to #2", ["#2", "#20"])
    ])
    func completes(_ line: String, _ expected: [String]) {
        #expect(texts(line) == expected)
    }

    @Test func idsComeWithTheirFirstLineAsAHint() {
        let result = completer.complete("delete 20")
        #expect(result.word == "20")
        #expect(result.items == [Completion("20", hint: "오늘의 감사: 따뜻한 커피 한 잔 @journal", sortKey: "0000000000000000020")])
        #expect(!result.isIncomplete)
    }

    @Test func idLookupReadsOnlyMatchingRanges() throws {
        let store = try MemoStore.open(.memory)
        for number in 1...130 {
            try store.insert(
                MemoDraft(
                    uuid: "00000000-0000-4000-8000-\(String(number).leftPadded(to: 12))",
                    content: "memo \(number)\nsecond line", insertDate: Timestamp(secondsSince1970: Int64(number))))
        }
        let summaries = try store.summaries(idPrefix: "12", limit: 50)
        #expect(summaries.map(\.id) == [129, 128, 127, 126, 125, 124, 123, 122, 121, 120, 12])
        #expect(summaries.last?.title == "memo 12")
        #expect(try store.summaries(idPrefix: "", limit: 2).map(\.id) == [130, 129])
        #expect(try store.summaries(idPrefix: "999", limit: 5).isEmpty)
        #expect(try store.summaries(idPrefix: "012", limit: 5).isEmpty)
    }

    /// The text-order ends of the ids with a prefix, found by index look-ups per range, are
    /// those of sorting every matching id as text, with memos deleted anywhere.
    @Test func textOrderBoundsAreThoseOfSortingTheIdsAsText() throws {
        let store = try MemoStore.open(.memory)
        for number in 1...1_205 {
            try store.insert(
                MemoDraft(
                    uuid: "00000000-0000-4000-8000-\(String(number).leftPadded(to: 12))",
                    content: "memo \(number)", insertDate: Timestamp(secondsSince1970: Int64(number))))
        }
        _ = try store.delete(ids: [1, 7, 70, 99, 999, 1000, 1205], at: Timestamp(secondsSince1970: 2_000))
        let ids = (1...1_205).filter { ![1, 7, 70, 99, 999, 1000, 1205].contains($0) }.map(String.init)
        for prefix in ["", "1", "7", "9", "12", "120", "99", "700", "5000"] {
            let matching = ids.filter { $0.hasPrefix(prefix) }.sorted()
            let bounds = try store.textOrderBounds(idPrefix: prefix)
            #expect(
                bounds.map { [String($0.first.id), String($0.last.id)] }
                    == (matching.isEmpty ? nil : [matching.first!, matching.last!]),
                "prefix \(prefix)")
        }
    }

    /// Shells and the REPL insert what all offered ids share; when more match than are
    /// offered, that must be no more than what all matching ids share.
    @Test(arguments: ["", "7", "71", "#7", "715", "6", "69"])
    func aCutIdListSharesNoLongerPrefixThanAllMatches(_ typed: String) throws {
        let store = try MemoStore.open(.memory)
        for number in 1...7150 {
            try store.insert(
                MemoDraft(
                    uuid: "00000000-0000-4000-8000-\(String(number).leftPadded(to: 12))",
                    content: "memo \(number)", insertDate: Timestamp(secondsSince1970: Int64(number))))
        }
        // The 50 newest ids starting with 7 all start with 71; without 6, 60…68, 600…689 and
        // 6000…6899, all 111 ids starting with 6 start with 69.
        let deleted = [6] + Array(60...68) + Array(600...689) + Array(6000...6899)
        _ = try store.delete(ids: deleted.map(Int64.init), at: Timestamp(secondsSince1970: 10_000))
        let notebook = try ScriptedNotebook(store: store).notebook
        let result = Completer(data: notebook).complete("show " + typed)
        let digits = typed.hasPrefix("#") ? String(typed.dropFirst()) : typed
        let matching = (1...7150).map(String.init).filter { $0.hasPrefix(digits) && !deleted.contains(Int($0)!) }
        let offered = result.items.map { $0.text.hasPrefix("#") ? String($0.text.dropFirst()) : $0.text }
        #expect(result.isIncomplete == (matching.count > Completer.limit))
        #expect(offered.count == min(matching.count, Completer.limit))
        #expect(
            offered.reduce(offered[0]) { $0.sharedPrefix(with: $1) }
                == matching.reduce(matching[0]) { $0.sharedPrefix(with: $1) })
        #expect(offered.map { Int($0)! } == offered.map { Int($0)! }.sorted())
    }
}

private extension String {
    func leftPadded(to width: Int) -> String {
        String(repeating: "0", count: max(0, width - count)) + self
    }
}
