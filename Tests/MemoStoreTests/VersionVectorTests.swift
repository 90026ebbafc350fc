import Testing
@testable import MemoStore

@Suite("Version vectors read from a store")
struct VersionVectorTests {
    @Test(arguments: [
        (#"{"a":2,"b":1}"#, ["a": 2, "b": 1]),
        (#"{"a":2,"x":"not a number","y":[[1]],"z":null}"#, ["a": 2]),
        (#"{"a":3.0,"b":1e300,"c":2.7,"d":true}"#, ["a": 3, "c": 2, "d": 1]),
        (#"[1,2]"#, [:]),
        (#"not json"#, [:]),
    ] as [(String, [String: Int64])])
    func membersThatAreCountsAreKept(json: String, counts: [String: Int64]) {
        #expect(VersionVector(json: json).counts == counts)
    }

    @Test func aVectorWrittenAsTextReadsBackTheSame() {
        let vector = VersionVector(["b": 1, "a": 7])
        #expect(vector.json == #"{"a":7,"b":1}"#)
        #expect(VersionVector(json: vector.json) == vector)
    }
}
