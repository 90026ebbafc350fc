import Foundation
import Testing

@testable import MemoNotebook
@testable import MemoServer
@testable import MemoStore

@Suite("JSON-RPC dispatch and lifecycle")
struct DispatchTests {
    let harness: ServerHarness

    init() throws {
        harness = try ServerHarness()
    }

    @Test func requestsBeforeInitializeAreRefused() throws {
        let reply = try harness.request("memo/list")
        #expect(reply.errorCode == -32002)
        #expect(
            try harness.notify("textDocument/didOpen", ["textDocument": ["uri": "file:///a.memo", "text": "bogus"]])
                .isEmpty)
    }

    @Test func initializeAnswersCapabilitiesAndServerInfo() throws {
        let result = try #require(try harness.request("initialize", ["capabilities": [:]]).result)
        #expect((result["serverInfo"] as? [String: Any])?["name"] as? String == "memo")
        #expect((result["serverInfo"] as? [String: Any])?["version"] as? String == memoVersion)
        let capabilities = try #require(result["capabilities"] as? [String: Any])
        #expect(capabilities["positionEncoding"] as? String == "utf-16")
        #expect(capabilities["hoverProvider"] as? Bool == true)
        #expect(try harness.request("initialize").errorCode == -32600)
    }

    @Test func parseErrors() throws {
        try harness.initialize()
        for body in ["{not json", "", "[1, 2"] {
            let reply = try #require(harness.receive(body).first as? [String: Any])
            #expect(reply.errorCode == -32700)
            #expect(reply["id"] is NSNull)
        }
        let invalidUTF8 =
            Array(#"{"jsonrpc":"2.0","id":1,"method":"memo/add","params":{"content":""#.utf8) + [0xFF, 0xFE]
            + Array(#""}}"#.utf8)
        #expect((harness.receive(invalidUTF8).first as? [String: Any])?.errorCode == -32700)
    }

    /// Values are counted before parsing: each would become an object (1.8 GB for 40 MB of
    /// them). Brackets and separators inside strings are text, not values.
    @Test func aMessageOfTooManyValuesIsRefusedUnread() throws {
        try harness.initialize()
        let limit = MemoServer.maximumValuesPerMessage
        let many =
            #"{"jsonrpc":"2.0","id":1,"method":"memo/delete","params":{"ids":["# + String(repeating: "1,", count: limit)
            + "1]}}"
        let refused = try #require(harness.receive(many).first as? [String: Any])
        #expect(refused.errorCode == -32600)
        #expect(refused.errorMessage == "the message holds more than \(limit) JSON values; it was not read")
        #expect(refused["id"] as? Int == 1, "the id is read without parsing the message")
        let text = String(repeating: #"[{,:\"x"#, count: limit)
        let added = try harness.request("memo/add", ["content": String(text.prefix(1 << 20))])
        #expect(added.errorCode == nil)
    }

    /// A change memo refuses unread leaves the document's text unknown here: memo says so on
    /// the document and offers nothing in it (no warnings at old places) until it is sent whole.
    @Test func aRefusedChangeStopsKeepingItsDocument() throws {
        try harness.initialize()
        let uri = "file:///n.md"
        try harness.open(uri, text: "see #7\n")
        #expect(harness.diagnostics(for: uri) == ["no memo #7"])
        let many = String(repeating: #"{"text":""},"#, count: MemoServer.maximumValuesPerMessage / 2)
        harness.receive(
            #"{"jsonrpc":"2.0","method":"textDocument/didChange","params":{"textDocument":{"uri":"file:\/\/\/n.md","version":2},"contentChanges":["#
                + many + #"{"text":"x"}]}}"#)
        let said = harness.diagnostics(for: uri)
        #expect(
            said.count == 1 && said[0].contains("could not read") && said[0].contains("close and reopen it"), "\(said)")
        _ = try harness.notify(
            "textDocument/didChange",
            [
                "textDocument": ["uri": uri, "version": 3],
                "contentChanges": [
                    ["range": ["start": ["line": 0, "character": 0], "end": ["line": 0, "character": 0]], "text": "#8 "]
                ]
            ])
        #expect(harness.diagnostics(for: uri) == said, "an edit to text memo does not know is not applied")
        _ = try harness.notify(
            "textDocument/didChange",
            ["textDocument": ["uri": uri, "version": 4], "contentChanges": [["text": "and #9\n"]]])
        #expect(harness.diagnostics(for: uri) == ["no memo #9"])
    }

    /// A document that incremental changes grow past the size memo keeps is not kept either.
    @Test func aDocumentGrownPastTheLimitIsNotKept() throws {
        try harness.initialize()
        let uri = "file:///big.md"
        // Of line breaks alone: the lines, not the bytes, run over what memo keeps.
        let megabyte = String(repeating: "\n", count: 1 << 20)
        try harness.open(uri, text: megabyte + "#7\n")
        #expect(harness.diagnostics(for: uri) == ["no memo #7"])
        for version in 2...3 {
            _ = try harness.notify(
                "textDocument/didChange",
                [
                    "textDocument": ["uri": uri, "version": version],
                    "contentChanges": [
                        [
                            "range": ["start": ["line": 0, "character": 0], "end": ["line": 0, "character": 0]],
                            "text": megabyte
                        ]
                    ]
                ])
        }
        let said = harness.diagnostics(for: uri)
        #expect(
            said.count == 1
                && said[0].hasPrefix("memo reads documents of up to \(64 << 20) bytes and 2000000 lines; this one has "),
            "\(said.map { $0.prefix(80) })")
    }

    /// A selection sent end first (made backwards) is the same selection: its text is saved,
    /// and a move replaces it, not an empty place.
    @Test func aBackwardSelectionIsTheSelection() throws {
        try harness.initialize(["workspace": ["applyEdit": true]])
        try harness.open("file:///n.md", text: "keep\nmove me\n")
        let backwards: [String: Any] = [
            "uri": "file:///n.md", "range": ["start": ["line": 1, "character": 7], "end": ["line": 0, "character": 4]]
        ]
        try harness.request("workspace/executeCommand", ["command": "memo.moveSelection", "arguments": [backwards]])
        let asked = try #require(
            harness.sent.compactMap { $0 as? [String: Any] }.last { $0["method"] as? String == "workspace/applyEdit" })
        // The move is answered once the editor answered its edit.
        let answers = harness.receive(
            #"{"jsonrpc":"2.0","id":"\#(asked["id"] as? String ?? "")","result":{"applied":true}}"#)
        let saved = try #require(answers.first as? [String: Any])
        #expect(saved.result?["content"] as? String == "\nmove me")
        let edit = try #require(
            ((((asked["params"] as? [String: Any])?["edit"] as? [String: Any])?["changes"] as? [String: Any])?[
                "file:///n.md"]
                as? [[String: Any]])?.first)
        #expect((edit["range"] as? [String: [String: Int]])?["start"] == ["line": 0, "character": 4])
        #expect((edit["range"] as? [String: [String: Int]])?["end"] == ["line": 1, "character": 7])
    }

    /// A move's edit that the client answers with an error (eglot answers -32603 when it
    /// cannot apply one) keeps no memo, and the user is told; one it applies keeps it.
    @Test func aMoveWhoseEditTheClientRefusesKeepsNoMemo() throws {
        try harness.initialize(["workspace": ["applyEdit": true]])
        try harness.open("file:///n.md", text: "move me\nand me\n")
        func move(line: Int) throws -> String {
            let selection: [String: Any] = [
                "uri": "file:///n.md",
                "range": [
                    "start": ["line": line, "character": 0],
                    "end": ["line": line, "character": 6]
                ]
            ]
            try harness.request("workspace/executeCommand", ["command": "memo.moveSelection", "arguments": [selection]])
            let asked = try #require(
                harness.sent.compactMap { $0 as? [String: Any] }.last {
                    $0["method"] as? String == "workspace/applyEdit"
                })
            return try #require(asked["id"] as? String)
        }
        let refused = try move(line: 0)
        harness.receive(#"{"jsonrpc":"2.0","id":"\#(refused)","error":{"code":-32603,"message":"cannot apply"}}"#)
        #expect(try harness.request("memo/execute", ["line": "count"]).result?["output"] as? String == "0\n")
        let told = harness.notifications("window/showMessage").last?["message"] as? String ?? ""
        #expect(told.contains("did not apply the edit") && told.contains("was not kept"))
        let applied = try move(line: 1)
        harness.receive(#"{"jsonrpc":"2.0","id":"\#(applied)","result":{"applied":true}}"#)
        #expect(try harness.request("memo/execute", ["line": "count"]).result?["output"] as? String == "1\n")
        // The refused move is withdrawn, not kept in this session's undo: an undo takes back
        // the move that happened, and nothing brings the refused one back.
        #expect(
            try harness.request("memo/execute", ["line": "undo"]).result?["output"] as? String
                == "undid change 3 (add \"and me\")\n")
        #expect(
            try harness.request("memo/execute", ["line": "undo"]).result?["output"] as? String
                == "error: nothing to undo\n")
        #expect(
            try harness.request("memo/execute", ["line": "redo"]).result?["output"] as? String
                == "redid change 3 (add \"and me\")\n")
        #expect(
            try harness.request("memo/execute", ["line": "redo"]).result?["output"] as? String
                == "error: nothing to redo\n")
        #expect(try harness.request("memo/execute", ["line": "count"]).result?["output"] as? String == "1\n")
    }

    /// Code actions are offered on a selection that makes a memo, not on white space alone.
    @Test func codeActionsNeedASelectionWithText() throws {
        try harness.initialize(["workspace": ["applyEdit": true]])
        try harness.open("file:///n.md", text: "move me   \n\n")
        func titles(_ from: [Int], _ to: [Int]) throws -> [String] {
            let reply = try harness.request(
                "textDocument/codeAction",
                [
                    "textDocument": ["uri": "file:///n.md"], "context": ["diagnostics": []],
                    "range": [
                        "start": ["line": from[0], "character": from[1]],
                        "end": ["line": to[0], "character": to[1]]
                    ]
                ])
            return (reply["result"] as? [[String: Any]])?.compactMap { $0["title"] as? String } ?? ["?"]
        }
        #expect(try titles([0, 0], [0, 7]) == ["Save selection as memo", "Move selection to a memo"])
        #expect(try titles([0, 7], [2, 0]).isEmpty)
        #expect(try titles([0, 12], [0, 40]).isEmpty)
    }

    /// `memo/add` takes a `date` and `memo/update` a `date` (or `insertDate`) that moves the memo
    /// in the same change as the rest, read by the one date parser (natural forms too); a date
    /// that cannot be read or kept is invalid params, with the one-line date error.
    @Test func addAndUpdateTakeADate() throws {
        try harness.initialize()
        func memo(_ method: String, _ params: [String: Any]) throws -> [String: Any]? {
            try harness.request(method, params).result
        }
        let added = try memo("memo/add", ["content": "last night", "date": "2024-03-04T21:30:00Z"])
        #expect(added?["insertDate"] as? String == "2024-03-04T21:30:00.000Z")
        let older = try #require(
            try memo("memo/add", ["content": "older", "date": "3 days ago"])?["insertDate"] as? String)
        let now = try #require(try memo("memo/add", ["content": "now"])?["insertDate"] as? String)
        #expect(
            older.hasPrefix("1999-12-29T") && now.hasPrefix("2000-01-01T"), "the server's test clock starts in 2000")
        let both = try memo(
            "memo/update", ["id": 1, "content": "last night, rewritten", "insertDate": "2024-03-01T08:00:00Z"])
        #expect(both?["content"] as? String == "last night, rewritten")
        #expect(both?["insertDate"] as? String == "2024-03-01T08:00:00.000Z")
        _ = try memo("memo/execute", ["line": "undo"])
        let undone = try memo("memo/get", ["id": 1])
        #expect(undone?["content"] as? String == "last night", "one undo takes back the text and the date")
        #expect(undone?["insertDate"] as? String == "2024-03-04T21:30:00.000Z")
        #expect(try memo("memo/update", ["id": 1, "date": "2024-02-01"])?["insertDate"] as? String != nil)
        let unreadable = try harness.request("memo/add", ["content": "x", "date": "someday"])
        #expect(unreadable.errorCode == -32602)
        #expect(unreadable.errorMessage?.hasPrefix("invalid params: invalid date 'someday': use YYYY-MM-DD") == true)
        let outside = try harness.request("memo/update", ["id": 1, "date": "0000-06-01"])
        #expect(outside.errorCode == -32602)
        #expect(outside.errorMessage?.contains("invalid date '0000-06-01' for '--date': it falls outside") == true)
        let twice = try harness.request("memo/update", ["id": 1, "date": "2024-02-01", "insertDate": "2024-02-02"])
        #expect(twice.errorMessage == "invalid params: give 'date' or 'insertDate', not both")
        #expect(try memo("memo/execute", ["line": "count"])?["output"] as? String == "3\n", "nothing more was added")
    }

    /// A memo's file closed in the editor follows the store again: a change made while it was
    /// open reaches the file at once.
    @Test func aClosedMemoFileFollowsTheStoreAgain() throws {
        try harness.initialize()
        try harness.request("memo/add", ["content": "first"])
        let uri = try #require(try harness.fileURIOfMemo1())
        try harness.open(uri, text: "first")
        try harness.request("memo/update", ["id": 1, "content": "second"])
        _ = try harness.notify("textDocument/didClose", ["textDocument": ["uri": uri]])
        #expect(try String(contentsOfFile: try #require(URL(string: uri)?.path), encoding: .utf8) == "second")
    }

    /// An in-memory store vanishes at exit, and so do the files of its memos.
    @Test func anInMemoryStoresFilesGoWithIt() throws {
        try harness.initialize()
        try harness.request("memo/add", ["content": "private"])
        let uri = try #require(try harness.fileURIOfMemo1())
        let path = try #require(URL(string: uri)?.path)
        #expect(FileManager.default.fileExists(atPath: path))
        harness.server.finish()
        #expect(!FileManager.default.fileExists(atPath: path))
        #expect(!FileManager.default.fileExists(atPath: (path as NSString).deletingLastPathComponent))
    }

    /// A move the client never answers did not happen: when the session ends, its memo goes.
    @Test func aMoveNeverAnsweredKeepsNoMemo() throws {
        try harness.initialize(["workspace": ["applyEdit": true]])
        try harness.open("file:///n.md", text: "move me\n")
        let selection: [String: Any] = [
            "uri": "file:///n.md", "range": ["start": ["line": 0, "character": 0], "end": ["line": 0, "character": 7]]
        ]
        try harness.request("workspace/executeCommand", ["command": "memo.moveSelection", "arguments": [selection]])
        try harness.request("shutdown")
        harness.server.finish()
        #expect(try harness.notebook.memo(id: 1) == nil)
    }

    /// Several lines given to `memo/execute` are one change: all of them, or none when one
    /// fails, and one undo takes them back.
    @Test func severalExecutedLinesRunAllOrNothing() throws {
        try harness.initialize()
        let failed = try #require(try harness.request("memo/execute", ["line": "add hello\nworld"]).result)
        #expect(failed["ok"] as? Bool == false)
        #expect(
            failed["output"] as? String == """
                error: unknown command 'world' (try 'help')
                error: nothing was changed: the lines run as one change, all or nothing

                """)
        #expect(try harness.request("memo/execute", ["line": "count"]).result?["output"] as? String == "0\n")
        let both = try #require(try harness.request("memo/execute", ["line": "add one\nadd <<END\ntwo\nEND"]).result)
        #expect(both["ok"] as? Bool == true)
        #expect(both["output"] as? String == "added #1\nadded #2\n")
        #expect(try harness.request("memo/execute", ["line": "undo"]).result?["ok"] as? Bool == true)
        #expect(try harness.request("memo/execute", ["line": "count"]).result?["output"] as? String == "0\n")
    }

    /// Lines that would open, save or roll back a batch are refused, since a batch is not kept
    /// across requests; with other lines, so are lines whose effect could not be taken back.
    @Test(arguments: [
        ("begin", "error: a batch is not kept across requests: the lines of one memo/execute are one change already\n"),
        (
            "add q\nrollback",
            "error: a batch is not kept across requests: the lines of one memo/execute are one change already\n"
        ),
        ("add q\nquit", "error: 'quit' cannot run with other lines in one memo/execute\n"),
        (
            "add q\nsync other.db",
            "error: 'sync' changes another store, which the other lines could not take back: send it alone\n"
        ),
        (
            "add q\nexport out.json",
            "error: 'export' to a file writes it at once, which the other lines could not take back: send it alone\n"
        ),
        (
            "add c\nundo\nadd d",
            "error: 'undo' cannot run with other lines in one memo/execute, which are one change: send it alone\n"
        ),
        (
            "redo\nadd d",
            "error: 'redo' cannot run with other lines in one memo/execute, which are one change: send it alone\n"
        )
    ])
    func executeRefusesLinesItCannotTakeBack(_ lines: String, _ answer: String) throws {
        try harness.initialize()
        let refused = try #require(try harness.request("memo/execute", ["line": lines]).result)
        #expect(refused["ok"] as? Bool == false)
        #expect(refused["output"] as? String == answer)
        #expect(try harness.request("memo/execute", ["line": "count"]).result?["output"] as? String == "0\n")
    }

    /// Lines that undo are all or nothing too: when the third `undo` finds nothing left, the
    /// first two stay done, and this session can still undo both.
    @Test func executedUndoLinesRunAllOrNothing() throws {
        try harness.initialize()
        for text in ["one", "two"] { _ = try harness.request("memo/execute", ["line": "add \(text)"]) }
        let failed = try #require(try harness.request("memo/execute", ["line": "undo\nundo\nundo"]).result)
        #expect(failed["ok"] as? Bool == false)
        #expect(
            (failed["output"] as? String)?.hasSuffix(
                "error: nothing was changed: the lines run as one change, all or nothing\n") == true)
        #expect(try harness.request("memo/execute", ["line": "count"]).result?["output"] as? String == "2\n")
        let undone = try #require(try harness.request("memo/execute", ["line": "undo\nundo"]).result)
        #expect(undone["ok"] as? Bool == true)
        #expect(try harness.request("memo/execute", ["line": "count"]).result?["output"] as? String == "0\n")
        #expect(try harness.request("memo/execute", ["line": "redo"]).result?["ok"] as? Bool == true)
        #expect(try harness.request("memo/execute", ["line": "count"]).result?["output"] as? String == "1\n")
    }

    /// Valid JSON nested deeper than any request needs is refused before the parser gives up
    /// on it, and answered with the request's id, whether the id is a number or a string and
    /// wherever it stands, escapes and all.
    @Test(
        arguments: [
            (#"{"jsonrpc":"2.0","id":42,"method":"memo/add","params":{"content":"x","deep":DEEP}}"#, 42, nil),
            (#"{"params":{"deep":DEEP},"method":"memo/add", "id" : "q-7","jsonrpc":"2.0"}"#, nil, "q-7"),
            (#"{"jsonrpc":"2.0","method":"memo/add","params":{"id":5,"deep":DEEP},"id":"a\"b\/c"}"#, nil, "a\"b/c")
        ] as [(String, Int?, String?)])
    func aDeeplyNestedMessageIsRefusedWithItsID(_ template: String, _ number: Int?, _ string: String?) throws {
        try harness.initialize()
        let deep = String(repeating: "[", count: 1_000) + String(repeating: "]", count: 1_000)
        let reply = try #require(harness.receive(template.replacing("DEEP", with: deep)).first as? [String: Any])
        #expect(reply.errorCode == -32600)
        #expect(
            reply.errorMessage == "the message nests deeper than \(MemoServer.maximumDepth) levels; it was not read")
        #expect(reply["id"] as? Int == number && reply["id"] as? String == string)
        #expect(try harness.request("memo/tags").errorCode == nil, "the server reads on")
    }

    @Test(
        arguments: [
            (#"{"jsonrpc":"2.0","id":1}"#, "the message has no 'method'", 1),
            (#"{"jsonrpc":"1.0","id":2,"method":"memo/tags"}"#, "'jsonrpc' must be \"2.0\"", 2),
            (#"{"jsonrpc":"2.0","id":{"x":1},"method":"memo/tags"}"#, "the id must be a number or a string", nil),
            (
                #"{"jsonrpc":"2.0","id":null,"method":"memo/add","params":{"content":"x"}}"#,
                "the id must be a number or a string", nil
            ),
            (#"{"jsonrpc":"2.0","id":3,"method":7}"#, "the message has no 'method'", 3),
            ("42", "not a JSON-RPC 2.0 message object", nil),
            ("[]", "an empty batch", nil)
        ] as [(String, String, Int?)])
    func invalidRequests(_ body: String, _ message: String, _ id: Int?) throws {
        try harness.initialize()
        let reply = try #require(harness.receive(body).first as? [String: Any])
        #expect(reply.errorCode == -32600)
        #expect(reply.errorMessage == message)
        #expect(reply["id"] as? Int == id)
        #expect((try harness.request("memo/list").result?["memos"] as? [Any])?.isEmpty == true, "nothing was run")
    }

    @Test func unknownMethods() throws {
        try harness.initialize()
        #expect(try harness.request("memo/frobnicate").errorMessage == "method 'memo/frobnicate' not found")
    }

    /// `memo/search` finds what the `search` command finds, newest first, and refuses a
    /// malformed query or limit as invalid params in memo's words.
    @Test func searchFindsMemosNewestFirst() throws {
        try harness.initialize()
        for content in ["Buy milk", "京都旅行の宿", "milk tea", "여행을 떠나다"] {
            try harness.request("memo/add", ["content": content])
        }
        func contents(_ params: [String: Any]) throws -> [String]? {
            (try harness.request("memo/search", params).result?["memos"] as? [[String: Any]])?.compactMap {
                $0["content"] as? String
            }
        }
        #expect(try contents(["query": "milk"]) == ["milk tea", "Buy milk"])
        #expect(try contents(["query": "milk", "limit": 1]) == ["milk tea"])
        #expect(try contents(["query": "旅行 OR 여행"]) == ["여행을 떠나다", "京都旅行の宿"])
        #expect(try contents(["query": "milk -tea"]) == ["Buy milk"])
        let malformed = try harness.request("memo/search", ["query": "\"open"])
        #expect(malformed.errorCode == -32602)
        #expect(malformed.errorMessage == "invalid params: invalid search '\"open': a quote (\") is not closed")
        #expect(try harness.request("memo/search", ["query": "milk", "limit": -1]).errorCode == -32602)
        #expect(try harness.request("memo/search", [:]).errorMessage == "invalid params: 'query' is required")
    }

    @Test(arguments: [
        ("memo/add", #"{"content":5}"#, "invalid params: 'content' must be a string"),
        ("memo/add", "{}", "invalid params: 'content' is required"),
        ("memo/add", #"{"content":"   "}"#, "memo text is empty"),
        (
            "memo/add", #"{"content":"x","tags":["no spaces"]}"#,
            "invalid tag 'no spaces': use letters, digits, '_' and '-'"
        ),
        ("memo/get", #"{"id":"one"}"#, "invalid params: 'id' must be an integer"),
        (
            "memo/list", #"{"order":"sideways"}"#,
            "invalid params: 'order' must be \"asc\" or \"desc\", not \"sideways\""
        ),
        ("memo/list", #"{"limit":-1}"#, "invalid params: 'limit' must be 0 or more"),
        (
            "memo/list", #"{"since":"soon"}"#,
            "invalid params: invalid date 'soon': use YYYY-MM-DD, YYYY-MM-DDTHH:MM[:SS[.sss]]Z (or +HH:MM), now, today, yesterday, tomorrow, a weekday (monday), last/this/next WEEKDAY, last/this/next week/month/year, an age (7d, 2w, 3m, 1y, 2 days ago, a week ago), and a time (21:30, 9pm, 9:30am, noon, midnight) alone for today or after a day (yesterday 21:30, yesterday at 9pm)"
        ),
        ("memo/delete", #"{"ids":[1,"two"]}"#, "invalid params: 'ids[1]' must be an integer"),
        (
            "memo/list", #"{"limit":99999999999999999999}"#,
            "invalid params: a number where an integer is wanted has a fraction or is too large"
        ),
        (
            "memo/add", #"{"content":"\x41"}"#,
            "invalid params: a string holds an escape JSON does not allow, or half of a surrogate pair"
        ),
        (
            "memo/add", #"{"content":"\ud800"}"#,
            "invalid params: a string holds an escape JSON does not allow, or half of a surrogate pair"
        ),
        (
            "textDocument/hover", #"{"textDocument":{"uri":"file:///a"},"position":{"line":0,"character":1.5}}"#,
            "invalid params: a number where an integer is wanted has a fraction or is too large"
        ),
        (
            "workspace/executeCommand",
            #"{"command":"memo.saveSelection","arguments":[{"uri":"x","range":{"start":{"line":0}}}]}"#,
            "invalid params: 'arguments[0].range.start.character' is required"
        ),
        ("memo/unwatch", #"{"watchId":9}"#, "no watch 9")
    ])
    func invalidParams(_ method: String, _ params: String, _ message: String) throws {
        try harness.initialize()
        let body = #"{"jsonrpc":"2.0","id":1,"method":"\#(method)","params":\#(params)}"#
        let reply = try #require(harness.receive(body).first as? [String: Any])
        #expect(reply.errorCode == -32602)
        #expect(reply.errorMessage == message)
    }

    @Test func missingMemos() throws {
        try harness.initialize()
        #expect(try harness.request("memo/get", ["id": 7]).errorCode == -32001)
        #expect(try harness.request("memo/update", ["id": 7, "content": "x"]).errorCode == -32001)
        try harness.request("memo/add", ["content": "kept"])
        #expect(try harness.request("memo/delete", ["ids": [1, 7]]).errorCode == -32001)
        #expect(try harness.notebook.store.count() == 1)
    }

    @Test func storeFailures() throws {
        try harness.initialize()
        try harness.notebook.store.database.execute("PRAGMA max_page_count = 1")
        let reply = try harness.request("memo/add", ["content": String(repeating: "full ", count: 10_000)])
        #expect(reply.errorCode == -32803)
        #expect(reply.errorMessage == "store failure: the disk is full")
    }

    @Test func batchesAreAnsweredAsBatches() throws {
        try harness.initialize()
        let replies = harness.receive(
            """
            [{"jsonrpc":"2.0","id":"a","method":"memo/add","params":{"content":"one"}},
             {"jsonrpc":"2.0","method":"initialized"},
             {"jsonrpc":"2.0","id":2,"method":"memo/tags"},
             5]
            """)
        let batch = try #require(replies.first as? [[String: Any]])
        #expect(batch.count == 3)
        #expect(batch[0]["id"] as? String == "a")
        #expect(batch[1]["id"] as? Int == 2)
        #expect(batch[2].errorCode == -32600)
    }

    /// Each element of a batch is read on its own, its params typed by its method: a bad
    /// element gets its own error, worded as it would be alone.
    @Test func eachElementOfABatchIsAnsweredOnItsOwn() throws {
        try harness.initialize()
        let replies = harness.receive(
            """
            [{"jsonrpc":"2.0","id":1,"method":"memo/get","params":{"id":"seven"}},
             {"jsonrpc":"2.0","id":2,"method":"memo/add","params":{"content":"kept"}},
             {"jsonrpc":"2.0","id":3,"method":"memo/nothing"},
             {"jsonrpc":"1.0","id":4,"method":"memo/tags"}]
            """)
        let batch = try #require(replies.first as? [[String: Any]])
        #expect(batch.map { $0["id"] as? Int } == [1, 2, 3, 4])
        #expect(batch[0].errorMessage == "invalid params: 'id' must be an integer")
        #expect(batch[1].result?["content"] as? String == "kept")
        #expect(batch[2].errorCode == -32601)
        #expect(batch[3].errorMessage == "'jsonrpc' must be \"2.0\"")
    }

    @Test func notebookMethods() throws {
        try harness.initialize()
        let added = try #require(
            try harness.request("memo/add", ["content": "Buy milk @shop", "tags": ["Errand"]]).result)
        #expect(added["id"] as? Int == 1)
        #expect(added["tags"] as? [String] == ["errand", "shop"])
        #expect(added["insertDate"] as? String == "2000-01-01T00:00:00.000Z")
        try harness.request("memo/add", ["content": "second"])
        #expect(try harness.request("memo/get", ["id": 1]).result?["content"] as? String == "Buy milk @shop")

        let listed = try #require(
            try harness.request("memo/list", ["order": "asc", "limit": 1]).result?["memos"] as? [[String: Any]])
        #expect(listed.map { $0["id"] as? Int } == [1])
        #expect((try harness.request("memo/list", ["tag": "SHOP"]).result?["memos"] as? [Any])?.count == 1)

        let updated = try #require(
            try harness.request("memo/update", ["id": 1, "content": "Buy oat milk", "tags": ["dairy"]]).result)
        #expect(updated["content"] as? String == "Buy oat milk")
        #expect(updated["tags"] as? [String] == ["dairy"])
        #expect(updated["updateDate"] as? String == "2000-01-01T00:00:02.000Z")

        let tags = try #require(try harness.request("memo/tags").result?["tags"] as? [[String: Any]])
        #expect(tags.map { $0["name"] as? String } == ["dairy"])
        // The tags given are the explicit ones: an inline @tag stays while the text has it.
        try harness.request("memo/update", ["id": 1, "content": "Buy oat milk @shop"])
        let retagged = try #require(try harness.request("memo/update", ["id": 1, "tags": []]).result)
        #expect(retagged["tags"] as? [String] == ["shop"])
        try harness.request("memo/update", ["id": 1, "content": "Buy oat milk", "tags": ["dairy"]])

        let executed = try #require(try harness.request("memo/execute", ["line": "count"]).result)
        #expect(executed["ok"] as? Bool == true)
        #expect(executed["output"] as? String == "2\n")
        let failed = try #require(try harness.request("memo/execute", ["line": "show 99"]).result)
        #expect(failed["ok"] as? Bool == false)
        #expect(failed["output"] as? String == "error: no memo #99\n")
        let heredoc = try #require(
            try harness.request("memo/execute", ["line": "add <<END\nline one\nline two\nEND"]).result)
        #expect(heredoc["output"] as? String == "added #3\n")

        #expect(try harness.request("memo/delete", ["ids": [1, 2]]).result?["deleted"] as? [Int] == [1, 2])
    }

    @Test func shutdownThenExit() throws {
        try harness.initialize()
        #expect(try harness.request("shutdown")["result"] is NSNull)
        #expect(try harness.request("memo/tags").errorCode == -32600)
        #expect(harness.server.exitStatus == nil)
        _ = try harness.notify("exit", [:])
        #expect(harness.server.exitStatus == 0)
    }

    @Test func exitWithoutShutdownFails() throws {
        try harness.initialize()
        _ = try harness.notify("exit", [:])
        #expect(harness.server.exitStatus == 1)
    }

    /// `memo/execute` splits lines as `memo run` does: CRLF ends a line.
    @Test func executeSplitsCRLFLines() throws {
        let harness = try ServerHarness.initialized()
        let result = try harness.request("memo/execute", ["line": "add first\r\nadd second\r\nlist"]).result
        #expect(
            result?["output"] as? String
                == "added #1\nadded #2\n#2  2000-01-01 00:00:01  second\n#1  2000-01-01 00:00:00  first\n")
    }

    /// Responses from the client are never answered, however they are shaped.
    @Test(arguments: [
        #"{"id":1,"result":null}"#, #"{"jsonrpc":"2.0","id":2,"error":{"code":1,"message":"x"}}"#,
        #"{"id":[1],"result":1}"#, #"[{"id":3,"result":null}]"#
    ])
    func responsesAreNeverAnswered(_ body: String) throws {
        let harness = try ServerHarness.initialized()
        #expect(harness.receive(body).isEmpty)
    }

    /// A `memo/update` that fails gives back the timestamp it took, as every command does:
    /// the next change is stamped as if the failed one had never been asked for.
    @Test func aFailedUpdateGivesBackItsTimestamp() throws {
        let harness = try ServerHarness.initialized()
        try harness.request("memo/add", ["content": "first"])
        let refused = try harness.request("memo/update", ["id": 1, "content": "changed", "tags": ["not a tag"]])
        #expect(refused.errorCode == -32602)
        #expect(try harness.request("memo/get", ["id": 1]).result?["content"] as? String == "first")
        let added = try #require(try harness.request("memo/add", ["content": "second"]).result)
        #expect(added["insertDate"] as? String == "2000-01-01T00:00:01.000Z")
    }

    /// The notebook methods are changes of the server's session: `undo` through
    /// `memo/execute` walks them back, newest first.
    @Test func undoWalksBackTheNotebookMethods() throws {
        let harness = try ServerHarness.initialized()
        try harness.request("memo/add", ["content": "first"])
        try harness.request("memo/update", ["id": 1, "content": "changed", "tags": ["t"]])
        try harness.request("memo/add", ["content": "second"])
        try harness.request("memo/delete", ["ids": [2]])
        func execute(_ line: String) throws -> String? {
            try harness.request("memo/execute", ["line": line]).result?["output"] as? String
        }
        #expect(
            try execute("undo\nundo\nundo")
                == "undid change 4 (delete \"second\")\nundid change 3 (add \"second\")\nundid change 2 (edit \"changed\")\n"
        )
        #expect(try harness.request("memo/get", ["id": 1]).result?["content"] as? String == "first")
        #expect(try execute("undo") == "undid change 1 (add \"first\")\n")
        #expect(try execute("undo") == "error: nothing to undo\n")
    }
}
