import MemoStore
import Testing

@testable import MemoNotebook

@Suite("Parser")
struct ParserTests {
    private func command(_ line: String) throws -> Command {
        guard case .command(let command) = try CommandParser.parse(line: line) else {
            throw CommandError.usage("not a command: \(line)")
        }
        return command
    }

    @Test(arguments: [
        ("add Buy milk", Command.add(text: "Buy milk", tags: [])),
        ("add --tag Work --tag=home It's done", .add(text: "It's done", tags: ["work", "home"])),
        (#"add "--tag is text here""#, .add(text: "--tag is text here", tags: [])),
        ("add -- --not an option", .add(text: "--not an option", tags: [])),
        ("list", .list(ListArguments())),
        (
            "list --asc -n 5 --offset 10 --tag @Work",
            .list(ListArguments(filter: FilterArguments(tags: ["work"]), order: .oldestFirst, limit: 5, offset: 10))
        ),
        ("list --tag a --tag b", .list(ListArguments(filter: FilterArguments(tags: ["a", "b"])))),
        (
            "list --since 2024-01-02 --until today",
            .list(
                ListArguments(
                    filter: FilterArguments(since: .day(CivilDate(year: 2024, month: 1, day: 2)), until: .today)))
        ),
        ("count --on yesterday", .count(FilterArguments(on: .yesterday))),
        ("show 1 #2", .show(ids: [1, 2])),
        ("edit 3 new text here", .edit(id: 3, text: "new text here")),
        ("rm 4 5", .delete(ids: [4, 5])),
        ("delete 4", .delete(ids: [4])),
        ("tag 1 a B", .tag(id: 1, tags: ["a", "b"])),
        ("untag 1 a", .untag(id: 1, tags: ["a"])),
        ("tags", .tags),
        ("info", .info),
        ("help", .help(topic: nil)),
        ("help list", .help(topic: "list")),
        ("exit", .quit),
        ("list -n5 --offset=2", .list(ListArguments(limit: 5, offset: 2))),
        ("history -n1", .history(limit: 1)),
        ("list -n=3", .list(ListArguments(limit: 3)))
    ])
    func parsesCommands(_ line: String, _ expected: Command) throws {
        #expect(try command(line) == expected)
    }

    @Test(arguments: ["", "   ", "# a comment", "   # indented comment"])
    func blankAndCommentLinesAreNothing(_ line: String) throws {
        #expect(try CommandParser.parse(line: line) == .nothing)
    }

    @Test(arguments: [
        ("frobnicate 1", "unknown command 'frobnicate' (try 'help')", "frobnicate", CommandError.Kind.usage),
        ("list --bogus", "unknown option '--bogus' for 'list'", "--bogus", .usage),
        ("list -n", "option '-n' needs a value", "-n", .usage),
        ("list -n many", "invalid number 'many' for '-n': expected 0 or more", "many", .invalidArgument),
        ("list -n -3", "invalid number '-3' for '-n': expected 0 or more", "-3", .invalidArgument),
        (
            "list -n 99999999999999999999",
            "invalid number '99999999999999999999' for '-n': too large (at most 9223372036854775807)",
            "99999999999999999999", .invalidArgument
        ),
        ("list -nmany", "invalid number 'many' for '-n': expected 0 or more", "-nmany", .invalidArgument),
        ("list --asc=yes", "option '--asc' takes no value", "--asc=yes", .usage),
        ("list -x5", "unknown option '-x5' for 'list'", "-x5", .usage),
        (
            "list --since 2024-02-30",
            "invalid date '2024-02-30': use YYYY-MM-DD, YYYY-MM-DDTHH:MM[:SS[.sss]]Z (or +HH:MM), now, today, yesterday, tomorrow, a weekday (monday), last/this/next WEEKDAY, last/this/next week/month/year, an age (7d, 2w, 3m, 1y, 2 days ago, a week ago), and a time (21:30, 9pm, 9:30am, noon, midnight) alone for today or after a day (yesterday 21:30, yesterday at 9pm)",
            "2024-02-30", .invalidArgument
        ),
        ("list extra", "unexpected argument 'extra' for 'list'", "extra", .usage),
        (
            "show x1", "invalid memo id 'x1': expected a positive number, memo:HANDLE or memo:UUID", "x1",
            .invalidArgument
        ),
        ("show 0", "invalid memo id '0': expected a positive number, memo:HANDLE or memo:UUID", "0", .invalidArgument),
        ("tag 1 bad!tag", "invalid tag 'bad!tag': use letters, digits, '_' and '-'", "bad!tag", .invalidArgument),
        ("help nothing", "unknown command 'nothing' (try 'help')", "nothing", .usage),
        ("search --bogus heart", "unknown option '--bogus' for 'search'", "--bogus", .usage),
        ("search heart --rank --asc", "'search' takes --rank or an order (--asc, --desc), not both", "--asc", .usage)
    ])
    func errorsNameTheOffendingWord(_ line: String, _ message: String, _ word: String, _ kind: CommandError.Kind) throws
    {
        #expect {
            try command(line)
        } throws: { error in
            guard let error = error as? CommandError, let range = error.range else { return false }
            return error.message == message && line[range] == word && error.kind == kind
        }
    }

    /// `add` and `edit` without text parse: the session gets the text, or refuses.
    @Test func textCommandsWithoutTextLeaveItToTheSession() throws {
        #expect(try command("add --tag x") == .add(text: nil, tags: ["x"]))
        #expect(try command("edit 1") == .edit(id: 1, text: nil))
    }

    @Test(arguments: ["list --help", "list -h", "add --tag x --help", "search -n 3 -h", "edit -h", "delete --help"])
    func helpOptionAsksForTheCommandsHelp(_ line: String) throws {
        let name = String(line.prefix { $0 != " " })
        #expect(try command(line) == .help(topic: name))
    }

    /// Options may follow the text, one rule for every command; `--` (or quotes) keep
    /// option-like words in the text.
    @Test(arguments: [
        ("add Buy bread --tag shop", Command.add(text: "Buy bread", tags: ["shop"])),
        ("add --tag a Buy bread --tag=b", .add(text: "Buy bread", tags: ["a", "b"])),
        ("add Don't forget --tag x", .add(text: "Don't forget", tags: ["x"])),
        ("add -- Buy bread --tag shop", .add(text: "Buy bread --tag shop", tags: [])),
        ("add Buy bread -- --tag shop", .add(text: "Buy bread -- --tag shop", tags: [])),
        (#"add Buy "--tag" shop"#, .add(text: #"Buy "--tag" shop"#, tags: [])),
        ("add it is -5 degrees - cold -x", .add(text: "it is -5 degrees - cold -x", tags: [])),
        ("edit 3 new text", .edit(id: 3, text: "new text")),
        ("tag 1 a --help", .help(topic: "tag")),
        ("add see --help", .help(topic: "add"))
    ])
    func optionsMayFollowTheText(_ line: String, _ expected: Command) throws {
        #expect(try command(line) == expected)
    }

    @Test func optionsMayFollowTheTextOfProgramArguments() throws {
        #expect(
            try CommandParser.parse(arguments: ["add", "Buy", "bread", "--tag", "shop"])
                == .add(text: "Buy bread", tags: ["shop"]))
        #expect(
            try CommandParser.parse(arguments: ["add", "--", "Buy", "--tag", "shop"])
                == .add(text: "Buy --tag shop", tags: []))
        #expect(
            try CommandParser.parse(arguments: ["add", "--tag", "x", "Buy bread"])
                == .add(text: "Buy bread", tags: ["x"]))
    }

    @Test(arguments: [
        ("add Buy bread --tag shop milk", "unexpected argument 'milk' for 'add'", "milk"),
        (
            "add fix the --verbose flag", "unknown option '--verbose' for 'add' (write -- before a text that holds it)",
            "--verbose"
        ),
        // --tag is an option of edit without an id now (a filter); edit ID refuses it (BulkEditTests).
        (
            "edit 2 see --verbose x", "unknown option '--verbose' for 'edit' (write -- before a text that holds it)",
            "--verbose"
        )
    ])
    func wordsAfterTheTextMustBeOptions(_ line: String, _ message: String, _ word: String) throws {
        #expect {
            try command(line)
        } throws: { error in
            guard let error = error as? CommandError, let range = error.range else { return false }
            return error.message == message && line[range] == word
        }
    }

    @Test func helpAfterDoubleDashIsText() throws {
        #expect(try command("add -- see --help") == .add(text: "see --help", tags: []))
        #expect(
            try command("search milk -- -h") == .search(SearchArguments(query: try SearchQuery(parsing: "milk -h"))))
    }

    @Test(arguments: [
        ("show", "'show' needs at least one memo id"),
        ("tag 1", "'tag' needs at least one tag")
    ])
    func missingArguments(_ line: String, _ message: String) throws {
        #expect(throws: CommandError.usage(message)) { try command(line) }
    }

    @Test func heredocAsksForItsBodyThenParses() throws {
        #expect(try delimiter(of: "add --tag x <<END") == "END")
        #expect(try delimiter(of: "edit 2 <<EOF") == "EOF")
        #expect(
            try CommandParser.parse(line: "add --tag x <<END", heredoc: "one\ntwo")
                == .command(.add(text: "one\ntwo", tags: ["x"])))
        #expect(try command(#"add "<<END""#) == .add(text: "<<END", tags: []))
        #expect(try command(#"add 'a <<"END"'"#) == .add(text: #"a <<"END""#, tags: []))
    }

    /// Every line that ends in an opener asks for its body first, whatever comes before it:
    /// its body must never be read as commands.
    @Test(arguments: [
        ("add <<'EOF'", "EOF"), ("add << EOF", "EOF"), (#"add <<"EOF""#, "EOF"), ("add\t<<\tEOF  ", "EOF"),
        ("ad <<END", "END"), ("add --bogus <<END", "END"), ("edit x <<END", "END"), ("list <<END", "END"),
        ("<<END", "END"), ("add Don't <<END", "END"), ("add some text <<END", "END")
    ])
    func everyOpenerAsksForItsBody(_ line: String, _ expected: String) throws {
        #expect(try delimiter(of: line) == expected)
    }

    @Test(arguments: ["add a<<END", "add <<", "add <<'END", #"add <<"END'"#, "add <<<END", "add x << ", "# note <<END"])
    func linesThatDoNotOpenAHeredoc(_ line: String) {
        #expect((try? delimiter(of: line)) == nil)
    }

    @Test(arguments: [
        ("ad <<END", "unknown command 'ad' (try 'help')"),
        ("add --bogus <<END", "unknown option '--bogus' for 'add'"),
        ("list <<END", "'list' takes no heredoc text"),
        ("add some text <<END", "'add' takes its text on the line or in a heredoc, not both"),
        ("<<END", "a heredoc needs a command before '<<'")
    ])
    func aWrongOpenerLineFailsOnlyOnceItsBodyIsRead(_ line: String, _ message: String) {
        #expect(throws: CommandError.self) { try CommandParser.parse(line: line, heredoc: "delete 1") }
        #expect((try? CommandParser.parse(line: line, heredoc: "x")) == nil)
        do {
            _ = try CommandParser.parse(line: line, heredoc: "delete 1")
        } catch {
            #expect(error.message == message)
        }
    }

    @Test func aDelimiterLineMayHaveTrailingBlanks() throws {
        let opener = try #require(HeredocOpener(endOf: "add <<END"))
        #expect(opener.isClosed(by: "END"))
        #expect(opener.isClosed(by: "END \t "))
        #expect(!opener.isClosed(by: " END"))
        #expect(!opener.isClosed(by: "ENDS"))
    }

    private func delimiter(of line: String) throws -> String? {
        guard case .needsHeredoc(let opener) = try CommandParser.parse(line: line) else { return nil }
        return opener.delimiter
    }

    /// `search` takes `list`'s options anywhere before `--`; a word with one dash that is not
    /// one of them leaves memos out, one with two is an unknown option.
    @Test func searchTakesListOptionsAnywhere() throws {
        #expect(
            try command("search heart -n 1 --tag love")
                == .search(
                    SearchArguments(
                        query: try SearchQuery(parsing: "heart"),
                        list: ListArguments(filter: FilterArguments(tags: ["love"]), limit: 1))))
        #expect(
            try command("search --rank trip -passport")
                == .search(
                    SearchArguments(
                        query: try SearchQuery(parsing: "trip -passport"), isRanked: true)))
        #expect(
            try command("search don't \"stop now\" -- -n")
                == .search(
                    SearchArguments(
                        query: try SearchQuery(parsing: "don't \"stop now\" -n"))))
        #expect(try command("search milk -h") == .help(topic: "search"))
        #expect(
            try command("search -n2 the")
                == .search(SearchArguments(query: try SearchQuery(parsing: "the"), list: ListArguments(limit: 2))))
        #expect(
            try command("search the -nice") == .search(SearchArguments(query: try SearchQuery(parsing: "the -nice"))))
    }

    /// An option with a dash missing would silently leave memos out: it is refused, saying how
    /// to write either.
    @Test func aSearchOptionWithADashMissingIsRefused() throws {
        #expect {
            try command("search milk -rank")
        } throws: { error in
            (error as? CommandError)?.message
                == "'-rank' leaves out memos with 'rank'; for the option, write '--rank' (or put the word after --)"
        }
        #expect(
            try command("search milk -- -rank")
                == .search(SearchArguments(query: try SearchQuery(parsing: "milk -rank"))))
    }

    @Test func programArgumentsAreTakenLiterally() throws {
        #expect(
            try CommandParser.parse(arguments: ["add", "--tag", "a", "Don't", "<<END"])
                == .add(text: "Don't <<END", tags: ["a"]))
        #expect(try CommandParser.parse(arguments: ["add", "  spaced  "]) == .add(text: "  spaced  ", tags: []))
        #expect(try CommandParser.parse(arguments: ["list", "-n", "2"]) == .list(ListArguments(limit: 2)))
        #expect(try CommandParser.parse(arguments: ["list", "-n2"]) == .list(ListArguments(limit: 2)))
        #expect(throws: CommandError.unknownOption(Word(text: "--nope", isLiteral: false), command: "list")) {
            try CommandParser.parse(arguments: ["list", "--nope"])
        }
    }
}
