import Testing

@testable import MemoNotebook

/// The fast reader of flat records gives what `JSONValue.parse` (`JSONDecoder`) gives, and
/// leaves everything else to it.
@Suite("Flat JSON records")
struct FlatRecordParserTests {
    /// An object's members as a lookup reads them: the last of a repeated key wins.
    private func members(_ value: JSONValue?) -> [String: JSONValue]? {
        guard case .object(let pairs)? = value else { return nil }
        return Dictionary(pairs, uniquingKeysWith: { _, last in last })
    }

    @Test(arguments: [
        #"{"content":"plain"}"#,
        #"  { "id" : null , "content" : "x" , "tags" : [ "a" , "b" ] }  "#,
        #"{"content":"quotes \" backslash \\ slash \/ controls \b\f\n\r\t"}"#,
        #"{"content":"unicode é 旅行 🎉 \u00e9 \u65c5 \ud83c\udf89"}"#,
        #"{"content":"","tags":[],"uuid":"00000000-0000-4000-8000-000000000001"}"#,
        #"{}"#
    ])
    func flatRecordsReadAsTheDecoderReadsThem(_ text: String) throws {
        let flat = try #require(FlatRecordParser.parse(text))
        #expect(members(flat) == members(try JSONValue.parse(text.utf8)))
        // Read from bytes not known to be valid UTF-8 (a JSON array's elements), the same.
        #expect(Array(text.utf8).withUnsafeBufferPointer(FlatRecordParser.parse) == flat)
    }

    /// A quote, a backslash or a control character at any place of a long run of plain bytes
    /// (read eight at a time) ends the run where it stands.
    @Test func aRunEndsWhereItsEndStands() throws {
        for offset in 0..<24 {
            let before = String(repeating: "a", count: offset), after = String(repeating: "é", count: 9)
            for escape in [#"\""#, #"\\"#, #"\n"#] {
                let text = #"{"content":""# + before + escape + after + #""}"#
                let flat = try #require(FlatRecordParser.parse(text), "\(text)")
                #expect(members(flat) == members(try JSONValue.parse(text.utf8)), "\(text)")
            }
            let quoted = #"{"content":""# + before + #"","tags":["x"]}"#
            #expect(members(FlatRecordParser.parse(quoted)) == members(try JSONValue.parse(quoted.utf8)), "\(quoted)")
            #expect(FlatRecordParser.parse(#"{"content":""# + before + "\t" + after + #""}"#) == nil, "\(offset)")
        }
    }

    @Test func aRepeatedKeyTakesItsLastValue() {
        #expect(
            FlatRecordParser.parse(#"{"content":"same key","content":"last wins"}"#)?[member: "content"]
                == .string("last wins"))
    }

    @Test(arguments: [
        #"{"id":1,"content":"a number"}"#,
        #"{"content":"x","nested":{"a":"b"}}"#,
        #"{"content":true}"#,
        #"{"content":"unclosed}"#,
        #"{"content":"x"} trailing"#,
        "{\"content\":\"raw\ttab\"}",
        #"{"content":"lone \ud83c surrogate"}"#,
        #"{"content":"bad \x escape"}"#,
        #"["content"]"#,
        ""
    ])
    func otherShapesAreLeftToTheDecoder(_ text: String) {
        #expect(FlatRecordParser.parse(text) == nil)
    }

    @Test func invalidUTF8IsLeftToTheDecoder() {
        let bytes: [UInt8] = Array(#"{"content":""#.utf8) + [0xE9] + Array(#""}"#.utf8)
        #expect(bytes.withUnsafeBufferPointer(FlatRecordParser.parse) == nil)
    }
}
