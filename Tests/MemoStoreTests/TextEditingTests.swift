import Foundation
import Testing

@testable import MemoStore

/// The Foundation-free string edits give what Foundation's `NSString` methods gave, which the
/// tests (not memo) still import to compare with.
@Suite("Text editing without Foundation")
struct TextEditingTests {
    static let samples = [
        "", " ", "plain", "  two sides \t", "\u{3000}ideographic\u{A0}", "\nline breaks stay\n",
        " \u{301}mark after a space", "\u{2028}\u{85}\u{200B}\u{FEFF}x", "é😀", "e\u{301}", "a😀b", "abcdefghijkl"
    ]

    @Test func trimmingMatchesFoundationWhitespaces() {
        for sample in Self.samples {
            #expect(
                sample.trimmingSpaces().unicodeScalars.elementsEqual(
                    sample.trimmingCharacters(in: .whitespaces).unicodeScalars),
                "\(sample.debugDescription)")
        }
        #expect(" a b ".dropFirst().trimmingSpaces() == "a b")
    }

    @Test func paddingMatchesFoundationInUTF16Units() {
        for sample in Self.samples {
            for length in [0, 1, 2, 3, 6, 10] {
                #expect(
                    sample.paddedWithSpaces(toLength: length).unicodeScalars
                        .elementsEqual(sample.padding(toLength: length, withPad: " ", startingAt: 0).unicodeScalars),
                    "\(sample.debugDescription) to \(length)")
            }
        }
    }

    @Test func sharedPrefixMatchesFoundationCommonPrefix() {
        let pairs = [
            ("abc", "abd"), ("abc", "ABD"), ("café", "cafe\u{301}s"), ("cafe", "cafe\u{301}s"), ("", "x"),
            ("tag", "tags")
        ]
        for (first, second) in pairs {
            #expect(
                first.sharedPrefix(with: second).unicodeScalars.elementsEqual(
                    first.commonPrefix(with: second).unicodeScalars),
                "\(first.debugDescription), \(second.debugDescription)")
        }
    }

    /// SQL quoting and roff escaping use the standard library's `replacing`, which matches
    /// whole characters as Foundation did: a quote carrying a combining mark is not a quote.
    @Test func replacingMatchesFoundationReplacingOccurrences() {
        for sample in Self.samples + ["say \"hi\"", "a\"\u{301}b", "-\u{301}-", "back\\slash"] {
            for (target, replacement) in [("\"", "\"\""), ("-", "\\-"), ("\\", "\\e")] {
                #expect(
                    sample.replacing(target, with: replacement).unicodeScalars
                        .elementsEqual(sample.replacingOccurrences(of: target, with: replacement).unicodeScalars),
                    "\(sample.debugDescription): \(target)")
            }
        }
    }

    @Test func tagFoldingComposesAsFoundationDoes() {
        let names = [
            "cafe\u{301}", "\u{212B}ngstr\u{F6}m", "\u{2126}", "\u{1100}\u{1161}\u{11A8}", "q\u{307}\u{323}",
            "\u{0F73}", "İstanbul"
        ]
        for name in names {
            let foundation = name.precomposedStringWithCanonicalMapping.lowercased()
                .precomposedStringWithCanonicalMapping
            #expect(
                TagName.fold(name).unicodeScalars.elementsEqual(foundation.unicodeScalars), "\(name.debugDescription)")
        }
    }

    @Test func failureReasonsAreTheCLibrarysWords() {
        let missing = #expect(throws: CocoaError.self) {
            try FileManager.default.copyItem(atPath: "/nonexistent/memo", toPath: "/nonexistent/copy")
        }
        #expect(missing.map(failureReason) == "No such file or directory")
        #expect(failureReason(POSIXError(.EACCES)) == "Permission denied")
    }
}
