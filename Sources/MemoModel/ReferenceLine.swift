/// What `MemoReference` asks about the places of one line, worked out in one pass over it:
/// the markup tags it holds, its URLs, its Markdown link definition and code spans. Asked
/// at each reference, a scan back through the line would make a line of many references
/// cost its length times their count (a 600 KB memo of 200,000 `#ID`s never got written).
struct ReferenceLine {
    let text: String
    /// The places a tag of markup holds: after a `<` that opens one (`<a`, `</a`, `<!`) and
    /// the character after it, up to the next `>` or `<`.
    private var tags: [ClosedRange<String.Index>] = []
    /// The places in a URL: a run without white space, from the end of its first `://` on.
    private var urls: [ClosedRange<String.Index>] = []
    /// The places a Markdown link definition's destination starts at (`[x]: #12`): its
    /// label's end and the spaces after it.
    private var definition: ClosedRange<String.Index>?
    /// Its Markdown code spans, from a run of backticks to the next run of as many.
    private(set) var codeSpans: [ClosedRange<String.Index>] = []

    init(_ text: String, syntax: ReferenceSyntax) {
        self.text = text
        findTagsAndURLs()
        if syntax.isMarkdown {
            findDefinition()
            findCodeSpans()
        }
    }

    func isInTag(_ index: String.Index) -> Bool { Self.range(in: tags, holding: index) }
    func isInURL(_ index: String.Index) -> Bool { Self.range(in: urls, holding: index) }
    func isInCode(_ index: String.Index) -> Bool { Self.range(in: codeSpans, holding: index) }
    func isLinkDefinition(before index: String.Index) -> Bool { definition?.contains(index) ?? false }

    /// Whether one of `ranges` (in order, apart) holds `index`: a binary search.
    private static func range(in ranges: [ClosedRange<String.Index>], holding index: String.Index) -> Bool {
        var low = 0
        var high = ranges.count
        while low < high {
            let middle = (low + high) / 2
            if ranges[middle].lowerBound <= index { low = middle + 1 } else { high = middle }
        }
        return low > 0 && ranges[low - 1].contains(index)
    }

    private mutating func findTagsAndURLs() {
        var openTag: String.Index?
        var urlStart: String.Index?
        var hasURL = false
        var previous: (Character?, Character?) = (nil, nil)
        var index = text.startIndex
        while index < text.endIndex {
            let character = text[index]
            let next = text.index(after: index)
            if character == "<" || character == ">" {
                if let open = openTag, open <= index { tags.append(open...index) }
                openTag = nil
                if character == "<", next < text.endIndex,
                    text[next].isLetter || text[next] == "/" || text[next] == "!"
                {
                    openTag = text.index(after: next)
                }
            }
            if character.isWhitespace {
                if let start = urlStart { urls.append(start...index) }
                urlStart = nil
                hasURL = false
                previous = (nil, nil)
            } else {
                if !hasURL, character == "/", previous == ("/", ":") {
                    urlStart = next
                    hasURL = true
                }
                previous = (character, previous.0)
            }
            index = next
        }
        if let open = openTag, open <= text.endIndex { tags.append(open...text.endIndex) }
        if let start = urlStart { urls.append(start...text.endIndex) }
    }

    /// `[x]:` at the line's start (after up to three spaces), its label without `]`.
    private mutating func findDefinition() {
        let label = text.drop { $0 == " " }
        guard label.first == "[", text.distance(from: text.startIndex, to: label.startIndex) <= 3,
            let close = label.firstIndex(of: "]"), text[close...].dropFirst().first == ":"
        else { return }
        let end = text.index(close, offsetBy: 2)
        let spaces = text[end...].prefix { $0.unicodeScalars.allSatisfy(isSpace) }
        definition = end...spaces.endIndex
    }

    private mutating func findCodeSpans() {
        var index = text.startIndex
        while let open = text[index...].firstIndex(of: "`") {
            let run = text[open...].prefix { $0 == "`" }
            var search = run.endIndex
            var closed: String.Index?
            while let next = text[search...].firstIndex(of: "`") {
                let closing = text[next...].prefix { $0 == "`" }
                if closing.count == run.count {
                    closed = closing.endIndex
                    break
                }
                search = closing.endIndex
            }
            guard let end = closed else { break }
            codeSpans.append(open...text.index(before: end))
            index = end
        }
    }
}
