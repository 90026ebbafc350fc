import Testing

@testable import MemoStore

@Suite("Joining strings")
struct StringJoiningTests {
    /// The package's `[String].joined(separator:)` gives what the standard library's gives
    /// (an array slice still takes the standard library's).
    @Test(arguments: [[], [""], ["a"], ["a", "b"], ["", ""], ["a", "", "b"], ["été", "🎉", "東京"]])
    func joiningGivesWhatTheStandardLibraryGives(_ parts: [String]) {
        #expect(parts.joined(separator: ", ") == parts[...].joined(separator: ", "))
        #expect(parts.joined() == parts[...].joined())
        #expect(parts.joined(separator: "") == parts[...].joined(separator: ""))
    }

    @Test func theSeparatorStandsOnlyBetweenStrings() {
        #expect(["a", "b", "c"].joined(separator: " AND ") == "a AND b AND c")
        #expect([String]().joined(separator: ",") == "")
        #expect(["only"].joined(separator: ",") == "only")
    }
}
