/// The one editor buffer of `edit` with filters (docs/REFERENCE.md, Editing several memos at
/// once): a short comment, then each memo under a header line naming it and the version it was
/// written from, `%% #ID DATE v:VERSION`, and its text. The reader gives back exactly the texts
/// the writer wrote, whatever they hold:
///
/// - Lines whose first non-blank characters are `%%` belong to the reader (editors indent):
///   `%%%…` is a comment (dropped anywhere), `%% #ID …` heads a memo (what follows the id is
///   for the eye, but a last word `v:…`, the memo's version), `%% new` heads a new memo; any
///   other such line is malformed.
/// - A text line that is blanks, any number of `\`, then `%%` is written with one more `\`
///   after its blanks, and read with one less (as mboxrd quotes `From ` lines), so no text
///   line is ever read as a header, and a line that starts `\%%` comes back as it was.
/// - Each text is followed by one line break, which the reader drops, as `edit ID` drops the
///   one its editor adds. Lines are cut at line feeds only, by bytes: every CR of a text stays
///   in it, unless its header line ends in CR LF: then an editor saved the whole buffer with
///   CR LF line ends, turning each line feed into CR LF, those inside texts too, and each of
///   the block's lines gives that one CR back.
/// - A byte-order mark at the very start, which some editors add, is not text.
package enum BulkEditBuffer {
    /// What the reader found under one header.
    package enum Block: Equatable, Sendable {
        /// A memo's text; `version`, the `v:` its header names (nil when it names none: a
        /// header typed by hand stands for the memo as it is now).
        case memo(id: Int64, text: String, version: String? = nil)
        /// Text under a `%% new` header (possibly blank: then nothing is added).
        case new(text: String)
    }

    /// One memo as the writer shows it: its header's date (for the eye) and version.
    package struct Section: Sendable {
        package var id: Int64
        package var date: String
        package var version: String
        package var text: String

        package init(id: Int64, date: String, version: String, text: String) {
            self.id = id
            self.date = date
            self.version = version
            self.text = text
        }
    }

    static let marker = "%%"
    static let commentMarker = "%%%"
    static let newWord = "new"
    static let versionPrefix = "v:"

    /// The comment at the top of every buffer, saying how it works (lines the reader drops).
    static let guide = """
        %%% memo: every memo below is under a header line '%% #ID DATE v:VERSION'. Save and quit
        %%% to apply; quit with an error (:cq in vim) to change nothing. Change a text to edit that
        %%% memo; remove a header with its text to delete that memo; write a text under a new
        %%% header '%% new' to add a memo (one header per memo). Lines starting with '%%%' are
        %%% dropped; a text line starting with '%%' gets a '\\' before it, taken away on save.

        """

    /// The buffer for `memos`, in order.
    package static func write(_ memos: [Section]) -> String {
        guide
            + memos.map {
                section(header: "\(marker) #\($0.id) \($0.date) \(versionPrefix)\($0.version)", text: $0.text)
            }.joined()
    }

    /// A header line and its text, quoted, with the line break the reader drops.
    static func section(header: String, text: String) -> String {
        header + "\n" + lines(of: text).map(escaped).joined(separator: "\n") + "\n"
    }

    /// The blocks of a saved buffer, in order; a malformed header, text before the first
    /// header or a memo headed twice refuses the buffer.
    package static func read(_ buffer: String) throws(BulkEditProblem) -> [Block] {
        var all = lines(of: TextFile.withoutByteOrderMark(buffer))
        // The last line break ends the last line; it starts no empty line after it.
        if all.count > 1, all.last?.isEmpty == true { all.removeLast() }
        var blocks: [Block] = []
        var header: (block: Block, endsInCR: Bool)?
        var body: [Substring] = []
        var seen: Set<Int64> = []
        func close() {
            guard let current = header else { return }
            let lines = current.endsInCR ? body.map(withoutTheCRLineEndsAdd) : body
            let text = lines.map(unescaped).joined(separator: "\n")
            switch current.block {
            case .memo(let id, _, let version): blocks.append(.memo(id: id, text: text, version: version))
            case .new: blocks.append(.new(text: text))
            }
        }
        for (index, line) in all.enumerated() {
            let bare = line.hasSuffix("\r") ? line.dropLast() : line
            let start = bare.drop(while: \.isWhitespace)
            if start.hasPrefix(commentMarker) { continue }
            if start.hasPrefix(marker) {
                guard let block = Self.header(start) else {
                    throw .malformedHeader(line: index + 1, text: String(bare))
                }
                if case .memo(let id, _, _) = block, !seen.insert(id).inserted {
                    throw .duplicateHeader(line: index + 1, id: id)
                }
                close()
                header = (block, bare.endIndex != line.endIndex)
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

    /// `%% #ID … [v:VERSION]` or `%% new`, or nil.
    private static func header(_ line: Substring) -> Block? {
        let words = line.dropFirst(marker.count).split(whereSeparator: \.isWhitespace)
        guard line.dropFirst(marker.count).first?.isWhitespace == true, let first = words.first else { return nil }
        if first == newWord { return words.count == 1 ? .new(text: "") : nil }
        guard first.hasPrefix("#"), let id = Int64(first.dropFirst()), id > 0 else { return nil }
        let version = words.dropFirst().last.flatMap { $0.hasPrefix(versionPrefix) ? $0.dropFirst(2) : nil }
        return .memo(id: id, text: "", version: version.map(String.init))
    }

    /// The lines of `text`, cut at line feeds (bytes: a CR LF is one `Character`).
    private static func lines(of text: some StringProtocol) -> [Substring] {
        let text = Substring(text)
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

    /// Whether `line` is blanks, `\`…, then `%%`: a line the writer quotes with one more `\`.
    private static func isQuotable(_ line: Substring) -> Bool {
        line.drop(while: \.isWhitespace).drop { $0 == "\\" }.hasPrefix(marker)
    }

    private static func escaped(_ line: Substring) -> String {
        guard isQuotable(line) else { return String(line) }
        let blanks = line.prefix(while: \.isWhitespace)
        return String(blanks) + "\\" + line[blanks.endIndex...]
    }

    private static func unescaped(_ line: Substring) -> Substring {
        let blanks = line.prefix(while: \.isWhitespace)
        guard line[blanks.endIndex...].first == "\\", isQuotable(line) else { return line }
        return Substring(String(blanks) + line[blanks.endIndex...].dropFirst())
    }

    /// A line of a buffer saved with CR LF line ends without the CR the editor put before its
    /// line feed (the last line of a buffer that lost its last line break has none).
    private static func withoutTheCRLineEndsAdd(_ line: Substring) -> Substring {
        var scalars = line.unicodeScalars
        if scalars.last == "\r" { scalars.removeLast() }
        return Substring(scalars)
    }
}
