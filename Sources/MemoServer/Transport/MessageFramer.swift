/// The LSP base protocol's framing, as a state machine over bytes: headers
/// (`Content-Length: N\r\n`, others ignored) up to a blank line, then N bytes of JSON.
///
/// Bytes may arrive split anywhere or many frames at once. A malformed header block (a
/// misspelt or non-numeric `Content-Length`, a line without a colon, LF-only line ends, a
/// block over `maximumHeaderBytes`) is reported once, and the framer resynchronises at the
/// next `Content-Length:` header, so one bad frame never spoils the frames after it. A
/// `Content-Length` over `maximumBodyBytes` is refused the same way: its body is never held
/// in memory, and the frames after it are read (skipping the length it claims could swallow
/// every later message, when the claim is absurd).
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
        /// After a malformed or refused header block: skipping bytes up to the next `Content-Length:`.
        case resynchronizing
    }

    /// Whether a malformed header block's report quotes the bytes it could not read. Not for
    /// an encrypted store: after a frame whose length was wrong, the "header" is the rest of a
    /// message, which may hold a memo's text, and the report goes to the log.
    let quotesHeaders: Bool

    private var state = State.headers
    private var buffer: [UInt8] = []
    /// Where the unread bytes of `buffer` start: the bytes before are dropped once a receive,
    /// not once a message (many pipelined messages arrive in one read).
    private var start = 0

    init(quotesHeaders: Bool = true) {
        self.quotesHeaders = quotesHeaders
    }

    /// Takes the next bytes from the stream and returns what they completed.
    mutating func receive(_ bytes: some Sequence<UInt8>) -> [Event] {
        buffer.removeFirst(start)
        start = 0
        buffer.append(contentsOf: bytes)
        var events: [Event] = []
        while let event = nextEvent() { events.append(event) }
        return events
    }

    private mutating func nextEvent() -> Event? {
        switch state {
        case .headers:
            guard let end = headerEnd(), end - start <= Self.maximumHeaderBytes else {
                guard buffer.count - start > Self.maximumHeaderBytes else { return nil }
                return resynchronize(after: "a header block longer than \(Self.maximumHeaderBytes) bytes")
            }
            switch Self.contentLength(in: buffer[start..<end], quoting: quotesHeaders) {
            case .success(let length) where length > Self.maximumBodyBytes:
                start = end + 4
                state = .resynchronizing
                return .malformed("Content-Length \(length) is over the limit of \(Self.maximumBodyBytes) bytes")
            case .success(let length):
                start = end + 4
                state = .body(length: length)
                return nextEvent()
            case .failure(let problem):
                return resynchronize(after: problem.reason)
            }
        case .resynchronizing:
            guard let header = Self.nextHeaderStart(in: buffer, from: start) else {
                start = max(start, buffer.count - Self.headerName.count)
                return nil
            }
            start = header
            state = .headers
            return nextEvent()
        case .body(let length):
            guard buffer.count - start >= length else { return nil }
            let body = Array(buffer[start..<(start + length)])
            start += length
            state = .headers
            return .message(body)
        }
    }

    /// Reports a malformed header block and starts looking for the next frame's header after
    /// its first byte (a valid header may hide inside a block that failed, after LF-only
    /// line ends or garbage).
    private mutating func resynchronize(after reason: String) -> Event {
        start += 1
        state = .resynchronizing
        return .malformed(reason)
    }

    private static let headerName = Array("content-length:".utf8)

    /// Where the next `Content-Length:` (in any case) at or after `first` starts, if the buffer
    /// holds one. A plain loop over the bytes: a refused body of 64 MiB is skipped through here.
    private static func nextHeaderStart(in buffer: [UInt8], from first: Int) -> Int? {
        guard buffer.count - first >= headerName.count else { return nil }
        return buffer.withUnsafeBufferPointer { bytes -> Int? in
            let last = bytes.count - headerName.count
            var start = first
            while start <= last {
                if bytes[start] | 0x20 == UInt8(ascii: "c"), matchesHeaderName(bytes, at: start) { return start }
                start += 1
            }
            return nil
        }
    }

    private static func matchesHeaderName(_ bytes: UnsafeBufferPointer<UInt8>, at start: Int) -> Bool {
        for (offset, expected) in headerName.enumerated() {
            let byte = bytes[start + offset]
            guard byte == expected || (byte >= 65 && byte <= 90 && byte + 32 == expected) else { return false }
        }
        return true
    }

    /// Where the blank line that ends the headers starts.
    private func headerEnd() -> Int? {
        guard buffer.count - start >= 4 else { return nil }
        for index in start...(buffer.count - 4)
        where buffer[index] == 13 && buffer[index + 1] == 10 && buffer[index + 2] == 13 && buffer[index + 3] == 10 {
            return index
        }
        return nil
    }

    private struct HeaderProblem: Error {
        let reason: String
    }

    private static func contentLength(in header: ArraySlice<UInt8>, quoting: Bool) -> Result<Int, HeaderProblem> {
        let text = String(decoding: header, as: UTF8.self)
        var length: Int?
        for line in text.split(separator: "\r\n", omittingEmptySubsequences: true) {
            guard let colon = line.firstIndex(of: ":") else {
                return .failure(
                    HeaderProblem(reason: "a header line without a colon" + (quoting ? ": '\(line.prefix(80))'" : "")))
            }
            let name = line[..<colon].trimmingSpaces().lowercased()
            let value = line[line.index(after: colon)...].trimmingSpaces()
            if name == "content-length" {
                guard let number = Int(value), number >= 0 else {
                    let quoted = quoting ? "Content-Length '\(value.prefix(40))'" : "the Content-Length"
                    return .failure(HeaderProblem(reason: "\(quoted) is not a number"))
                }
                length = number
            }
        }
        guard let length else { return .failure(HeaderProblem(reason: "a header block without Content-Length")) }
        return .success(length)
    }
}
