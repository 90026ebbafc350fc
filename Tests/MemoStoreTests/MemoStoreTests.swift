import Foundation
import Testing

@testable import MemoStore

@Suite("Memo store")
struct MemoStoreTests {
    let store: MemoStore

    init() throws {
        store = try MemoStore.open(.memory)
    }

    /// Finishing a change stamps, revives and buries the memos it staged: the query plans
    /// look them up by id and never scan `memo` (the stamp's join scanned it, so one edit of a
    /// million-memo store took 0.2 s).
    @Test func finishingAChangeReadsOnlyTheMemosItStaged() throws {
        try store.historyImages.createStagingTable()
        for sql in SyncStamping.stagedMemoStatements {
            let plan = try store.database.asAnotherProgram { try store.database.prepare("EXPLAIN QUERY PLAN " + sql) }
            var steps: [String] = []
            while try plan.step() { steps.append(plan.string(at: 3)) }
            #expect(!steps.isEmpty)
            #expect(!steps.contains { $0.hasPrefix("SCAN memo") && !$0.hasPrefix("SCAN memo_") }, "\(steps)")
        }
    }

    @Test func insertThenReadBack() throws {
        let memo = try store.insert(draft("Buy milk", at: 5))
        #expect(memo.id == 1)
        #expect(memo.content == "Buy milk")
        #expect(memo.insertDate == Timestamp(secondsSince1970: 946_684_805))
        #expect(memo.updateDate == nil)
        #expect(try store.memo(id: 1) == memo)
        #expect(try store.memo(id: 2) == nil)
    }

    @Test func listingIsNewestFirstWithTiesBrokenById() throws {
        try store.insert(draft("old", at: 0, number: 1))
        try store.insert(draft("tie a", at: 10, number: 2))
        try store.insert(draft("tie b", at: 10, number: 3))
        try store.insert(draft("imported earlier", at: -50, number: 4))
        #expect(try store.all().map(\.content) == ["tie b", "tie a", "old", "imported earlier"])
        #expect(
            try store.all(MemoQuery(order: .oldestFirst)).map(\.content)
                == ["imported earlier", "old", "tie a", "tie b"])
    }

    @Test func limitOffsetAndDateRange() throws {
        for second in 0..<10 { try store.insert(draft("memo \(second)", at: Int64(second), number: second + 1)) }
        #expect(try store.all(MemoQuery(limit: 3, offset: 2)).map(\.content) == ["memo 7", "memo 6", "memo 5"])
        let window = MemoFilter(
            since: Timestamp(secondsSince1970: 946_684_802),
            before: Timestamp(secondsSince1970: 946_684_805))
        #expect(
            try store.all(MemoQuery(filter: window, order: .oldestFirst)).map(\.content)
                == ["memo 2", "memo 3", "memo 4"])
        #expect(try store.count(window) == 3)
        #expect(try store.count() == 10)
    }

    @Test(arguments: [
        "日本語のメモ、二行目も\nあります",
        "한국어 메모 🎉 with emoji and e\u{301}",
        "'); DROP TABLE memo; --",
        "%_\\ LIKE wildcards and \"quotes\" and ?1 placeholders",
        "tab\there\r\nand a NUL \u{0} inside"
    ])
    func textIsStoredVerbatim(_ text: String) throws {
        let memo = try store.insert(draft(text))
        #expect(try store.existingMemo(id: memo.id).content == text)
        #expect(try store.count() == 1)
    }

    @Test func contentLimits() throws {
        let largest = String(repeating: "a", count: MemoContent.maximumBytes)
        #expect(try store.insert(draft(largest)).content.utf8.count == MemoContent.maximumBytes)
        #expect(throws: StoreError.invalidContent("memo text is 1048577 bytes; the limit is 1048576 (1 MiB)")) {
            try store.insert(draft(largest + "a", number: 2))
        }
        #expect(throws: StoreError.invalidContent("memo text is empty")) { try store.insert(draft(" \n\t", number: 3)) }
        #expect(try store.count() == 1)
    }

    @Test func editKeepsInsertDateAndOrder() throws {
        try store.insert(draft("first", at: 1, number: 1))
        try store.insert(draft("second", at: 2, number: 2))
        let edited = try store.updateContent(id: 1, to: "first, edited", at: Timestamp(secondsSince1970: 946_684_900))
        #expect(edited.insertDate == Timestamp(secondsSince1970: 946_684_801))
        #expect(edited.updateDate == Timestamp(secondsSince1970: 946_684_900))
        #expect(try store.all().map(\.id) == [2, 1])
        #expect(throws: StoreError.memoNotFound([9])) { try store.updateContent(id: 9, to: "x", at: edited.insertDate) }
    }

    @Test func deleteIsAllOrNothing() throws {
        try store.insert(draft("one", number: 1))
        try store.insert(draft("two", number: 2))
        #expect(throws: StoreError.memoNotFound([99])) { try store.delete(ids: [1, 99]) }
        #expect(try store.count() == 2)
        #expect(try store.delete(ids: [2, 1, 2]) == [2, 1])
        #expect(try store.count() == 0)
    }

    @Test func idsAreNeverReused() throws {
        try store.insert(draft("one", number: 1))
        try store.insert(draft("two", number: 2))
        _ = try store.delete(ids: [2])
        #expect(try store.insert(draft("three", number: 3)).id == 3)
    }

    @Test func uuidsAreUnique() throws {
        try store.insert(draft("one", number: 1))
        #expect(throws: StoreError.self) { try store.insert(draft("copy", number: 1)) }
        #expect(try store.count() == 1)
    }

    @Test func inlineAndExplicitTags() throws {
        let memo = try store.insert(
            draft("Call @Mom about (@weekend) plans, mail me@example.com", tags: ["Family", "@todo"]))
        #expect(memo.tags == ["family", "mom", "todo", "weekend"])
        #expect(try store.all(MemoQuery(filter: MemoFilter(tags: ["mom"]))).map(\.id) == [memo.id])
        #expect(throws: StoreError.invalidTag("no spaces")) {
            try store.insert(draft("x", tags: ["no spaces"], number: 2))
        }
    }

    @Test func editReplacesInlineTagsButKeepsExplicitOnes() throws {
        let memo = try store.insert(draft("plan @trip and @work", tags: ["work"]))
        let edited = try store.updateContent(id: memo.id, to: "plan the @holiday", at: memo.insertDate)
        #expect(edited.tags == ["holiday", "work"])
    }

    @Test func tagAndUntag() throws {
        let memo = try store.insert(draft("note"))
        #expect(try store.addTags(["A", "b"], to: memo.id).tags == ["a", "b"])
        #expect(throws: StoreError.tagNotFound(memo: memo.id, tag: "zzz")) {
            try store.removeTags(["a", "zzz"], from: memo.id)
        }
        #expect(try store.existingMemo(id: memo.id).tags == ["a", "b"])
        #expect(try store.removeTags(["A"], from: memo.id).tags == ["b"])
        #expect(throws: StoreError.memoNotFound([7])) { try store.addTags(["x"], to: 7) }
    }

    @Test func tagCounts() throws {
        try store.insert(draft("@work one", number: 1))
        try store.insert(draft("@work @home two", number: 2))
        #expect(try store.tagCounts() == [TagCount(name: "home", count: 1), TagCount(name: "work", count: 2)])
        _ = try store.delete(ids: [2])
        #expect(try store.tagCounts() == [TagCount(name: "work", count: 1)])
    }

    @Test func fullTextIndexFollowsEveryChange() throws {
        let memo = try store.insert(draft("the quick brown fox"))
        #expect(try store.fullTextMatches("quick") == [memo.id])
        try store.updateContent(id: memo.id, to: "a lazy dog", at: memo.insertDate)
        #expect(try store.fullTextMatches("quick") == [])
        #expect(try store.fullTextMatches("lazy") == [memo.id])
        _ = try store.delete(ids: [memo.id])
        #expect(try store.fullTextMatches("lazy") == [])
    }

    @Test(arguments: [MemoOrder.newestFirst, .oldestFirst])
    func firstPageWalksTheIndexWithoutSorting(_ order: MemoOrder) throws {
        let (sql, _) = MemoQuery(order: order, limit: 20).selectStatement
        let plan = try store.database.prepare("EXPLAIN QUERY PLAN " + sql)
        try plan.bind([.integer(20), .integer(0)])
        var details: [String] = []
        while try plan.step() { details.append(plan.string(at: 3)) }
        #expect(details.contains { $0.contains("memo_by_insert_date") })
        #expect(!details.contains { $0.contains("TEMP B-TREE") })
    }

    /// Search results in date order, all of them, are sorted in memory (a sorter), not each
    /// inserted into a b-tree as a LIMIT makes SQLite order them; a page keeps its LIMIT.
    @Test(arguments: [nil, 20] as [Int?])
    func searchResultsAreSortedInMemoryUnlessPaged(limit: Int?) throws {
        let filter = MemoFilter(search: try SearchQuery(parsing: "fox"))
        let (sql, values) = MemoQuery(filter: filter, limit: limit).selectStatement
        let program = try store.database.prepare("EXPLAIN " + sql)
        try program.bind(values)
        var opcodes: [String] = []
        while try program.step() { opcodes.append(program.string(at: 1)) }
        #expect(opcodes.contains("SorterOpen") == (limit == nil))
        #expect(sql.contains("LIMIT") == (limit != nil))
    }

    @Test func info() throws {
        try store.insert(draft("one"))
        let info = try store.info()
        #expect(info.location == .memory)
        #expect(info.schemaVersion == Schema.currentVersion)
        #expect(info.memoCount == 1)
        #expect(info.journalMode == "memory")
    }

    /// One stored form per tag, however it was typed: NFC, one case fold, marks allowed.
    @Test func unicodeTagsAreFoldedOneWay() throws {
        let store = try MemoStore.open(.memory)
        let decomposedCafe = "cafe\u{301}"
        try store.insert(draft("trip @İstanbul @\(decomposedCafe)", tags: ["İzmir"]))
        let memo = try store.existingMemo(id: 1)
        #expect(memo.tags == ["café", "i\u{307}stanbul", "i\u{307}zmir"].sorted())
        #expect(
            memo.tags.contains("caf\u{E9}")
                && memo.tags.allSatisfy {
                    $0.unicodeScalars.elementsEqual($0.precomposedStringWithCanonicalMapping.unicodeScalars)
                })
        #expect(try store.addTags(["İSTANBUL", "CAF\u{C9}", "@i\u{307}zmir"], to: 1).tags == memo.tags)
        #expect(try store.count(MemoFilter(tags: [try TagName.normalize("İstanbul")])) == 1)
        #expect(try TagName.normalize(TagName.normalize("İstanbul")) == TagName.normalize("İstanbul"))
        #expect(throws: StoreError.invalidTag("bad!")) { try TagName.normalize("bad!") }
    }
}
