/// The one editor buffer of `edit` with filters (docs/REFERENCE.md, Editing several memos at
/// once): a short comment, then each memo under a header line naming it, `%% #ID DATE`, and
/// its text. The reader gives back exactly the texts the writer wrote, whatever they hold:
///
/// - Lines starting with `%%` belong to the reader: `%%%…` is a comment (dropped anywhere),
///   `%% #ID …` heads a memo (what follows the id is for the eye), `%% new` heads a new
///   memo; any other `%%` line is malformed.
/// - A text line starting with `%%` after any number of `\` is written with one more `\`
///   before it, and read with one less (as mboxrd quotes `From ` lines), so no text line is
///   ever read as a header, and a line that starts `\%%` comes back as it was.
/// - Each text is followed by one line break, which the reader drops, as `edit ID` drops the
///   one its editor adds (CR LF too). Lines are cut at line feeds only, by bytes: a CR LF
///   inside a text stays in it.
package enum BulkEditBuffer {
    /// What the reader found under one header.
    package enum Block: Equatable, Sendable {
        case memo(id: Int64, text: String)
        /// Text under a `%% new` header (possibly blank: then nothing is added).
        case new(text: String)
    }

    static let marker = "%%"
    static let commentMarker = "%%%"
    static let newWord = "new"

    /// The comment at the top of every buffer, saying how it works (lines the reader drops).
    static let guide = """
        %%% memo: every memo below is under a header line '%% #ID DATE'. Save and quit to apply;
        %%% quit with an error (:cq in vim) to change nothing. Change a text to edit that memo;
        %%% remove a header with its text to delete that memo; write a text under a new header
        %%% '%% new' to add a memo (one header per memo). Lines starting with '%%%' are dropped;
        %%% a text line starting with '%%' is shown with a '\\' before it, which is taken away.

        """

    /// The buffer for `memos`: each with its id, the date its header shows, and its text.
    package static func write(_ memos: [(id: Int64, date: String, text: String)]) -> String {
        guide + memos.map { section(header: "\(marker) #\($0.id) \($0.date)", text: $0.text) }.joined()
    }

    /// A header line and its text, quoted, with the line break the reader drops.
    static func section(header: String, text: String) -> String {
        header + "\n" + lines(of: text).map(escaped).joined(separator: "\n") + "\n"
    }

    /// The blocks of a saved buffer, in order; a malformed header, text before the first
    /// header or a memo headed twice refuses the buffer.
    package static func read(_ buffer: String) throws(BulkEditProblem) -> [Block] {
        var all = lines(of: buffer)
        // The last line break ends the last line; it starts no empty line after it.
        if all.count > 1, all.last?.isEmpty == true { all.removeLast() }
        var blocks: [Block] = []
        var header: Block?
        var body: [Substring] = []
        var seen: Set<Int64> = []
        func close() {
            guard let current = header else { return }
            let text = droppingOneLineBreak(body.map(unescaped).joined(separator: "\n") + "\n")
            switch current {
            case .memo(let id, _): blocks.append(.memo(id: id, text: text))
            case .new: blocks.append(.new(text: text))
            }
        }
        for (index, line) in all.enumerated() {
            let bare = line.hasSuffix("\r") ? line.dropLast() : line
            if bare.hasPrefix(commentMarker) { continue }
            if bare.hasPrefix(marker) {
                guard let block = Self.header(bare) else {
                    throw .malformedHeader(line: index + 1, text: String(bare))
                }
                if case .memo(let id, _) = block, !seen.insert(id).inserted {
                    throw .duplicateHeader(line: index + 1, id: id)
                }
                close()
                header = block
                body = []
            } else if header != nil {
                body.append(line)
            } else if !line.allSatisfy(\.isWhitespace) {
                throw .textBeforeFirstHeader(line: index + 1)
            }
        }
        close()
        return blocks
    }

    /// `%% #ID …` or `%% new`, or nil.
    private static func header(_ line: Substring) -> Block? {
        let words = line.dropFirst(marker.count).split(whereSeparator: \.isWhitespace)
        guard line.dropFirst(marker.count).first?.isWhitespace == true, let first = words.first else { return nil }
        if first == newWord { return words.count == 1 ? .new(text: "") : nil }
        guard first.hasPrefix("#"), let id = Int64(first.dropFirst()), id > 0 else { return nil }
        return .memo(id: id, text: "")
    }

    /// The lines of `text`, cut at line feeds (bytes: a CR LF is one `Character`).
    private static func lines(of text: String) -> [Substring] {
        let utf8 = text.utf8
        var lines: [Substring] = []
        var start = utf8.startIndex
        var index = start
        while index < utf8.endIndex {
            if utf8[index] == 0x0A {
                lines.append(text[start..<index])
                start = utf8.index(after: index)
            }
            index = utf8.index(after: index)
        }
        lines.append(text[start...])
        return lines
    }

    /// Whether `line` is `\`… then `%%`: a line the writer quotes with one more `\`.
    private static func isQuotable(_ line: Substring) -> Bool {
        line.drop { $0 == "\\" }.hasPrefix(marker)
    }

    private static func escaped(_ line: Substring) -> String {
        isQuotable(line) ? "\\" + line : String(line)
    }

    private static func unescaped(_ line: Substring) -> Substring {
        line.first == "\\" && isQuotable(line) ? line.dropFirst() : line
    }

    /// The text without the one line break that ended its last line (`\n` or CR LF).
    private static func droppingOneLineBreak(_ text: String) -> String {
        var scalars = Substring(text).unicodeScalars
        if scalars.last == "\n" {
            scalars.removeLast()
            if scalars.last == "\r" { scalars.removeLast() }
        }
        return String(Substring(scalars))
    }
}
