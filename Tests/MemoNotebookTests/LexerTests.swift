import Foundation
import Testing

@testable import MemoNotebook

@Suite("Lexer")
struct LexerTests {
    private func words(_ line: String) throws -> [String] {
        var scanner = LineScanner(line)
        var words: [String] = []
        while let word = try scanner.nextWord() { words.append(word.text) }
        return words
    }

    @Test(arguments: [
        ("list -n 5", ["list", "-n", "5"]),
        ("  show   1\t2  ", ["show", "1", "2"]),
        (#"tag 1 "two words" 'single quoted'"#, ["tag", "1", "two words", "single quoted"]),
        (#"add "line\nbreak\ttab \"quote\" back\\slash""#, ["add", "line\nbreak\ttab \"quote\" back\\slash"]),
        (#"add 'no \n escapes in single quotes'"#, ["add", #"no \n escapes in single quotes"#]),
        (#"joined"with"' parts'"#, ["joinedwith parts"]),
        (#"empty "" ''"#, ["empty", "", ""]),
        ("日本語 한국어", ["日本語", "한국어"])
    ])
    func splitsWords(_ line: String, _ expected: [String]) throws {
        #expect(try words(line) == expected)
    }

    /// Where a character is more than its first byte, the grapheme rules decide: a quote with
    /// a combining mark on it is no quote, a space with one is still a blank (as its first
    /// scalar is), CR LF is one blank, and white space beyond ASCII (an ideographic space)
    /// separates words.
    @Test(arguments: [
        ("a '\u{301}b c", ["a", "'\u{301}b", "c"]),
        ("a \u{301}b", ["a", "b"]),
        ("a \"\u{301}b c", ["a", "\"\u{301}b", "c"]),
        ("a \"\\\u{301}\"", ["a", "\\\u{301}"]),
        ("'x\u{301}' y", ["x\u{301}", "y"]),
        ("show 1\r\n", ["show", "1"]),
        ("a\u{3000}b 日本\u{3000}語", ["a", "b", "日本", "語"])
    ])
    func readsCharactersByTheGraphemeRules(_ line: String, _ expected: [String]) throws {
        #expect(try words(line) == expected)
    }

    @Test func rawWordsReadCharactersByTheGraphemeRules() {
        var scanner = LineScanner("a '\u{301}b' \"x\u{301} y\" c\r\n")
        var raw: [String] = []
        while let word = scanner.nextRawWord() { raw.append(word.text) }
        #expect(raw == ["a", "'\u{301}b'", "\"x\u{301} y\"", "c"])
    }

    @Test func unterminatedQuoteIsAnErrorPointingAtIt() throws {
        let line = #"tag 1 "open"#
        #expect {
            try words(line)
        } throws: { error in
            let error = error as? CommandError
            return error?.message == "unterminated \" quote" && error?.range.map { String(line[$0]) } == "\"open"
        }
    }

    @Test func wordsRememberWhereTheyStood() throws {
        let line = "show  12 #3"
        var scanner = LineScanner(line)
        _ = try scanner.nextWord()
        let next = try scanner.nextWord()
        let word = try #require(next)
        #expect(line[try #require(word.range)] == "12")
        #expect(!word.isLiteral)
    }

    @Test(arguments: [
        ("Don't forget the milk  ", "Don't forget the milk", false),
        (#""  spaced  out  ""#, "  spaced  out  ", true),
        (#""quoted" then more"#, #""quoted" then more"#, false),
        ("<<END", "<<END", false)
    ])
    func remainingTextIsTheRestOfTheLine(_ typed: String, _ expected: String, _ literal: Bool) throws {
        var scanner = LineScanner("add " + typed)
        _ = try scanner.nextWord()
        var raw = scanner
        let rest = scanner.remainingText(raw: false)
        let text = try #require(rest)
        #expect(text.text == expected)
        #expect(text.isLiteral == literal)
        #expect(scanner.remainingText(raw: false) == nil)
        #expect(
            raw.remainingText(raw: true)?.text == typed.trimmingCharacters(in: .whitespaces), "raw text is as typed")
    }

    /// The scanner's quick test of white space says what `Character.isWhitespace` says, for
    /// every scalar alone and for CR LF.
    @Test func blanksAreWhiteSpace() {
        let characters = (0...0x10FFFF).compactMap(Unicode.Scalar.init).map(Character.init) + ["\r\n"]
        #expect(characters.allSatisfy { $0.isBlank == $0.isWhitespace })
    }
}
