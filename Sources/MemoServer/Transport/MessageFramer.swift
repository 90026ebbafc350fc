import Foundation

/// The LSP base protocol's framing, as a state machine over bytes: headers
/// (`Content-Length: N\r\n`, others ignored) up to a blank line, then N bytes of JSON.
///
/// Bytes may arrive split anywhere or many frames at once. A malformed header block is
/// reported and skipped; a body over `maximumBodyBytes` is reported and its bytes are
/// discarded as they arrive, never held in memory.
///
/// See https://microsoft.github.io/language-server-protocol/specifications/lsp/3.17/specification/#baseProtocol
struct MessageFramer {
    /// What the framer made of the bytes so far.
    enum Event: Equatable {
        case message([UInt8])
        /// A frame that cannot be read; the framer has moved past it.
        case malformed(String)
    }

    static let maximumBodyBytes = 64 << 20
    /// A header block longer than this is not a header block.
    static let maximumHeaderBytes = 8 << 10

    private enum State {
        case headers
        case body(length: Int)
        case discarding(remaining: Int)
    }

    private var state = State.headers
    private var buffer: [UInt8] = []

    /// Takes the next bytes from the stream and returns what they completed.
    mutating func receive(_ bytes: some Sequence<UInt8>) -> [Event] {
        buffer.append(contentsOf: bytes)
        var events: [Event] = []
        while let event = nextEvent() { events.append(event) }
        return events
    }

    private mutating func nextEvent() -> Event? {
        switch state {
        case .headers:
            guard let end = headerEnd() else {
                guard buffer.count > Self.maximumHeaderBytes else { return nil }
                buffer.removeAll()
                return .malformed("a header block longer than \(Self.maximumHeaderBytes) bytes")
            }
            let header = Array(buffer[..<end])
            buffer.removeFirst(end + 4)
            switch Self.contentLength(in: header) {
            case .success(let length) where length > Self.maximumBodyBytes:
                state = .discarding(remaining: length)
                return .malformed("Content-Length \(length) is over the limit of \(Self.maximumBodyBytes) bytes")
            case .success(let length):
                state = .body(length: length)
                return nextEvent()
            case .failure(let problem):
                return .malformed(problem.reason)
            }
        case .body(let length):
            guard buffer.count >= length else { return nil }
            let body = Array(buffer[..<length])
            buffer.removeFirst(length)
            state = .headers
            return .message(body)
        case .discarding(let remaining):
            let dropped = min(remaining, buffer.count)
            buffer.removeFirst(dropped)
            state = remaining == dropped ? .headers : .discarding(remaining: remaining - dropped)
            return remaining == dropped ? nextEvent() : nil
        }
    }

    /// Where the blank line that ends the headers starts.
    private func headerEnd() -> Int? {
        guard buffer.count >= 4 else { return nil }
        for index in 0...(buffer.count - 4)
        where buffer[index] == 13 && buffer[index + 1] == 10 && buffer[index + 2] == 13 && buffer[index + 3] == 10 {
            return index
        }
        return nil
    }

    private struct HeaderProblem: Error {
        let reason: String
    }

    private static func contentLength(in header: [UInt8]) -> Result<Int, HeaderProblem> {
        let text = String(decoding: header, as: UTF8.self)
        var length: Int?
        for line in text.split(separator: "\r\n", omittingEmptySubsequences: true) {
            guard let colon = line.firstIndex(of: ":") else {
                return .failure(HeaderProblem(reason: "a header line without a colon: '\(line.prefix(80))'"))
            }
            let name = line[..<colon].trimmingCharacters(in: .whitespaces).lowercased()
            let value = line[line.index(after: colon)...].trimmingCharacters(in: .whitespaces)
            if name == "content-length" {
                guard let number = Int(value), number >= 0 else {
                    return .failure(HeaderProblem(reason: "Content-Length '\(value.prefix(40))' is not a number"))
                }
                length = number
            }
        }
        guard let length else { return .failure(HeaderProblem(reason: "a header block without Content-Length")) }
        return .success(length)
    }
}

private extension Substring {
    func trimmingCharacters(in set: CharacterSet) -> String {
        String(self).trimmingCharacters(in: set)
    }
}
