import Testing

@testable import MemoStore

@Suite("Version vectors read from a store")
struct VersionVectorTests {
    @Test(
        arguments: [
            (#"{"a":2,"b":1}"#, ["a": 2, "b": 1]),
            (#"{"a":2,"x":"not a number","y":[[1]],"z":null}"#, ["a": 2]),
            (#"{"a":3.0,"b":1e300,"c":2.7,"d":true}"#, ["a": 3, "c": 2, "d": 1]),
            (#"[1,2]"#, [:]),
            (#"not json"#, [:]),
            // The compact form memo writes is read without a decoder; the rest by the decoder.
            (#"{}"#, [:]),
            (
                #"{"~0f1e":1,"3860da24-8e0c-4622-9cc5-d58dfe11b883":1003}"#,
                ["~0f1e": 1, "3860da24-8e0c-4622-9cc5-d58dfe11b883": 1003]
            ),
            (#"{"a":-3,"b":0}"#, ["a": -3, "b": 0]),
            (#"{ "a" : 2 }"#, ["a": 2]),
            (#"{"ab":1,"é":2}"#, ["ab": 1, "é": 2]),
            (#"{"a":01}"#, [:])
        ] as [(String, [String: Int64])])
    func membersThatAreCountsAreKept(json: String, counts: [String: Int64]) {
        #expect(VersionVector(json: json).counts == counts)
    }

    @Test func aVectorWrittenAsTextReadsBackTheSame() {
        let vector = VersionVector(["b": 1, "a": 7])
        #expect(vector.json == #"{"a":7,"b":1}"#)
        #expect(VersionVector(json: vector.json) == vector)
    }

    @Test func countsOfEveryWidthAreWrittenWhole() {
        #expect(VersionVector().json == "{}")
        #expect(VersionVector(["s": 0]).json == #"{"s":0}"#)
        #expect(
            VersionVector(["s": Int64.max, "r": -12, "t": 10, "~é": 100]).json
                == #"{"r":-12,"s":9223372036854775807,"t":10,"~é":100}"#)
        #expect(VersionVector(["s": Int64.min]).json == #"{"s":-9223372036854775808}"#)
    }
}

@Suite("Names of a memo's state")
struct StateDigestTests {
    /// Stores out there hold these names in their versions, and stores that never met must
    /// name one state alike: the digest (two FNV-1a hashes of the parts joined by U+001F,
    /// checked here against values computed apart from memo) must never change, and SQL's
    /// `memo_state_name` must give what Swift gives.
    @Test func aStateIsNamedByTheSameDigestInSwiftAndInSQL() throws {
        #expect(
            StateDigest.text(content: "Buy milk", insertDate: 1_700_000_000_000, updateDate: nil)
                == "~faddcb4bcfe372153c9b7cc1bf26afbc")
        #expect(
            StateDigest.text(content: "café ☕", insertDate: 5, updateDate: nil) == "~fa61d8d59249eaec6a25842d33970ccb")
        #expect(StateDigest.tags([]) == "~cbf29ce48422232584222325cbf29ce4")
        let database = try Database(path: ":memory:")
        let sql = try database.prepare(
            "SELECT memo_state_name(?1, ?2, NULL), memo_state_name(''), memo_state_name(?3, 7, 8)")
        try sql.bind([.text("café ☕"), .integer(5), .text("x\u{1F}y")])
        #expect(try sql.step())
        #expect(sql.string(at: 0) == "~fa61d8d59249eaec6a25842d33970ccb")
        #expect(sql.string(at: 1) == StateDigest.tags([]))
        #expect(sql.string(at: 2) == StateDigest.text(content: "x\u{1F}y", insertDate: 7, updateDate: 8))
    }
}
