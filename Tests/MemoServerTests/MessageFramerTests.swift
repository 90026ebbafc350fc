import Testing

@testable import MemoServer

@Suite("LSP framing")
struct MessageFramerTests {
    private func frame(_ body: String, header: String? = nil) -> [UInt8] {
        Array((header ?? "Content-Length: \(body.utf8.count)\r\n\r\n").utf8) + Array(body.utf8)
    }

    private func bodies(_ events: [MessageFramer.Event]) -> [String] {
        events.compactMap { if case .message(let body) = $0 { String(decoding: body, as: UTF8.self) } else { nil } }
    }

    @Test func oneFrame() {
        var framer = MessageFramer()
        #expect(bodies(framer.receive(frame(#"{"a":1}"#))) == [#"{"a":1}"#])
    }

    @Test func framesSplitAtEveryPossiblePoint() {
        let stream =
            frame(#"{"id":1,"text":"日本語"}"#)
            + frame(
                #"{"id":2}"#,
                header: "Content-Type: application/vscode-jsonrpc; charset=utf-8\r\ncontent-length: 8\r\n\r\n")
        for split in 0...stream.count {
            var framer = MessageFramer()
            let events = framer.receive(stream[..<split]) + framer.receive(stream[split...])
            #expect(bodies(events) == [#"{"id":1,"text":"日本語"}"#, #"{"id":2}"#], "split at \(split)")
        }
        var byteByByte = MessageFramer()
        #expect(bodies(stream.flatMap { byteByByte.receive([$0]) }).count == 2)
    }

    @Test func concatenatedFramesInOneRead() {
        var framer = MessageFramer()
        let stream = (1...50).flatMap { frame(#"{"id":\#($0)}"#) }
        #expect(bodies(framer.receive(stream)).count == 50)
    }

    @Test(arguments: [
        ("Content-Type: text/plain\r\n\r\n", "a header block without Content-Length"),
        ("Content-Length: ten\r\n\r\n", "Content-Length 'ten' is not a number"),
        ("Content-Length: -3\r\n\r\n", "Content-Length '-3' is not a number"),
        ("garbage without colon\r\n\r\n", "a header line without a colon: 'garbage without colon'")
    ])
    func malformedHeadersAreReportedAndSkipped(_ header: String, _ reason: String) {
        var framer = MessageFramer()
        let events = framer.receive(Array(header.utf8) + frame(#"{"ok":true}"#))
        #expect(events == [.malformed(reason), .message(Array(#"{"ok":true}"#.utf8))])
    }

    /// After any malformed header block the framer finds the next `Content-Length:` header:
    /// every valid frame after a bad one is read, in the same read or in later ones.
    @Test(arguments: [
        "Content-Lenght: 2\r\n\r\n{}",
        "Content-Length: 2\n\n{}",
        "Content-Length: abc\r\n\r\n",
        "a header line without a colon\r\n\r\n{}",
        "Content-Type: x\r\nContent-Length: 1x\r\n\r\n{\"no\":1}",
        String(repeating: "h", count: 9000)
    ])
    func aMalformedHeaderSpoilsNoLaterFrame(_ garbage: String) {
        let valid = (1...3).flatMap { frame(#"{"id":\#($0)}"#) }
        var framer = MessageFramer()
        let events = framer.receive(Array(garbage.utf8) + valid)
        #expect(bodies(events) == [#"{"id":1}"#, #"{"id":2}"#, #"{"id":3}"#])
        #expect(events.contains { if case .malformed = $0 { true } else { false } })
        #expect(bodies(framer.receive(frame(#"{"id":4}"#))) == [#"{"id":4}"#])

        for split in stride(from: 0, through: garbage.utf8.count + valid.count, by: 97) {
            var piecewise = MessageFramer()
            let stream = Array(garbage.utf8) + valid
            let split = min(split, stream.count)
            #expect(
                bodies(piecewise.receive(stream[..<split]) + piecewise.receive(stream[split...])).count == 3,
                "split at \(split)")
        }
    }

    @Test func endlessHeaderIsRefused() {
        var framer = MessageFramer()
        let events = framer.receive([UInt8](repeating: UInt8(ascii: "x"), count: MessageFramer.maximumHeaderBytes + 1))
        #expect(events == [.malformed("a header block longer than 8192 bytes")])
        #expect(bodies(framer.receive(frame("{}"))) == ["{}"])
    }

    /// An absurd length (more bytes than will ever come) must not swallow the frames after it:
    /// the framer refuses it and reads on at the next header.
    @Test func anAbsurdLengthDoesNotSwallowTheFramesAfterIt() {
        var framer = MessageFramer()
        let events = framer.receive(
            Array("Content-Length: 99999999999\r\n\r\n".utf8) + frame(#"{"next":1}"#) + frame(#"{"next":2}"#))
        #expect(
            events.first
                == .malformed("Content-Length 99999999999 is over the limit of \(MessageFramer.maximumBodyBytes) bytes")
        )
        #expect(bodies(Array(events.dropFirst())) == [#"{"next":1}"#, #"{"next":2}"#])
    }

    @Test func oversizedBodyIsDiscardedWithoutBeingKept() {
        var framer = MessageFramer()
        let length = MessageFramer.maximumBodyBytes + 1
        let events = framer.receive(Array("Content-Length: \(length)\r\n\r\n".utf8))
        #expect(
            events == [
                .malformed("Content-Length \(length) is over the limit of \(MessageFramer.maximumBodyBytes) bytes")
            ])
        let chunk = [UInt8](repeating: UInt8(ascii: "a"), count: 1 << 20)
        for _ in 0..<64 { #expect(framer.receive(chunk).isEmpty) }
        #expect(bodies(framer.receive([UInt8(ascii: "a")] + frame(#"{"after":1}"#))) == [#"{"after":1}"#])
    }
}
