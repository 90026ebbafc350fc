/// A search as a person types it: an FTS5 `MATCH` expression that narrows the memos, and what
/// their folded text must then hold, so a result contains what was typed.
///
/// Words must all be found; `"a phrase"` finds the words in that order, whatever punctuation
/// splits them (`"jean paul"` finds `Jean-Paul`); `word*` finds words starting so; `a OR b`
/// finds either (OR binds before the words' AND: `a b OR c` is `a (b OR c)`); `(a OR b) c`
/// groups; `-word` (or `-"a phrase"`) leaves out memos that have it; `@tag` finds memos with
/// that tag (inline or given), `-@tag` leaves them out. The index holds words of letters,
/// digits and emoji; what else a word holds (`C++`, `$100`) is checked in the memo's text
/// (`MemoStore.matchesSearch`), case, accents and compatibility forms folded as the index
/// folds them (`SearchText.folded`). A word with no letters, digits or emoji (`&`, `-`) is
/// passed over when others remain. A `(` opens a group only at a word's start and a `)`
/// closes one only at a word's end, so `f(x)` and `:)` are text.
///
/// Every word goes into the expression as a quoted FTS5 string (double quotes doubled), and
/// groups as FTS5's own parentheses, so user text can never be read as FTS5 syntax, and
/// everything is bound as a parameter, never pasted into SQL.
/// See https://www.sqlite.org/fts5.html#full_text_query_syntax
package struct SearchQuery: Equatable, Sendable {
    /// The FTS5 expression to bind to `MATCH`; nil when the search is of tags alone, or of a
    /// fixed string that holds no whole word.
    package let expression: String?
    /// Tags the memos must carry, and must not.
    package let tags: [String]
    package let excludedTags: [String]
    /// What a memo's folded text must hold beyond what the index tells: each top-level
    /// clause with a term the index cannot decide (`isPlainWord`).
    package let required: [SearchCondition]
    /// Every term looked for, for showing where a memo matched.
    package let needles: [SearchNeedle]
    /// What it must not hold (excluded words that the index cannot leave out exactly).
    package let excluded: [SearchNeedle]

    /// Compiles `text`, or explains in memo's words why it cannot be searched.
    package init(parsing text: String) throws(StoreError) {
        var parser = Parser(text: text)
        let parsed = try parser.parse()
        (expression, tags, excludedTags, required, excluded, needles) = parsed
    }

    /// A fixed string (`search -F`), as grep -F reads one: found anywhere in a memo's text,
    /// folded as every search folds, nothing in it read as syntax (`-rf`, `OR`, quotes).
    /// The index is asked for the whole words within it, the last as a prefix when the
    /// string may end inside a word; the first may be the end of one, so it is not asked.
    package init(fixed text: String) throws(StoreError) {
        let folded = SearchText.folded(text).trimmingSpaces()
        guard !folded.isEmpty else { throw .invalidSearch(query: text, reason: "nothing to search for") }
        let needle = SearchNeedle(folded, kind: .substring)
        let pieces = folded.split(separator: " ").dropFirst()
        let terms = pieces.enumerated().compactMap { number, piece -> Term? in
            let isLast = number == pieces.count - 1
            let endsInWord = piece.last.map { $0.isLetter || $0.isNumber } ?? false
            return Term(String(piece), isPrefix: isLast && endsInWord)
        }
        expression = terms.isEmpty ? nil : terms.map(\.fts5).joined(separator: " AND ")
        (tags, excludedTags, excluded) = ([], [], [])
        required = [.needle(needle)]
        needles = [needle]
    }

    private struct Term {
        /// The term of a word or phrase (`*` taken off a prefix); nil for one with no letters,
        /// digits or emoji.
        init?(_ words: String, isPrefix: Bool) {
            let phrases = Self.parts(of: words).map(SearchText.tokens).filter { !$0.isEmpty }
            guard !phrases.isEmpty else { return nil }
            self.phrases = phrases
            self.isPrefix = isPrefix
            needle = SearchNeedle(SearchText.folded(words).trimmingSpaces(), isPrefix: isPrefix)
        }

        /// The tokens of each part of the term that the index holds as one phrase (`parts`).
        var phrases: [[String]]
        var isPrefix: Bool
        /// What a memo's folded text must hold.
        var needle: SearchNeedle

        /// The term for FTS5: each phrase quoted, with `*` after the last for a prefix, all of
        /// them required; the needle decides where they stand. A lone CJK character is held
        /// only as the start of a pair: a prefix.
        var fts5: String {
            let quoted = phrases.enumerated().map { number, tokens in
                let phrase = "\"" + tokens.map { $0.replacing("\"", with: "\"\"") }.joined(separator: " ") + "\""
                let prefix =
                    (isPrefix && number == phrases.count - 1)
                    || (tokens.count == 1 && SearchText.isSingleCJKCharacter(tokens[0]))
                return prefix ? phrase + " *" : phrase
            }
            return quoted.count == 1 ? quoted[0] : "(" + quoted.joined(separator: " AND ") + ")"
        }

        /// Whether the index alone tells it, exactly as the needle would: one word of letters
        /// and digits, or a run of Han, kana or Hangul. Not a phrase, whose tokens may stand
        /// apart in the text (`a, b` for `"a b"`), nor a word of both (`memo旅行` is also
        /// `memo 旅行` to the index). A search of such words alone reads no memo's text.
        var isPlainWord: Bool {
            phrases.count == 1 && !needle.text.contains(" ")
                && (phrases[0].count == 1 || phrases[0].allSatisfy { $0.unicodeScalars.allSatisfy(CJKPairs.isCJK) })
                && needle.text.unicodeScalars.allSatisfy {
                    $0.properties.isAlphabetic || $0.properties.numericType != nil
                }
        }

        /// `text` cut after each run of Han, kana or Hangul: the index holds such a run as
        /// pairs and then its last character alone, so the tokens on either side of a run's
        /// end (`東京|tower`, `漢字|; 한국어`) are not next to each other there.
        static func parts(of text: String) -> [String] {
            var parts: [String] = [], part = String.UnicodeScalarView(), lastWasCJK = false
            for scalar in text.unicodeScalars {
                let isCJK = CJKPairs.isCJK(scalar)
                if lastWasCJK, !isCJK {
                    parts.append(String(part))
                    part = String.UnicodeScalarView()
                }
                part.append(scalar)
                lastWasCJK = isCJK
            }
            return parts + [String(part)]
        }
    }

    /// A group's or the query's parts: terms and groups, each clause of them joined by OR.
    private indirect enum Node {
        case term(Term)
        case all([Node])
        case any([Node])

        /// Clauses joined by AND, each of its nodes joined by OR; one alone stands for itself.
        init(clauses: [[Node]]) {
            let nodes = clauses.map { $0.count == 1 ? $0[0] : .any($0) }
            self = nodes.count == 1 ? nodes[0] : .all(nodes)
        }

        var fts5: String {
            switch self {
            case .term(let term): term.fts5
            case .all(let nodes): "(" + nodes.map(\.fts5).joined(separator: " AND ") + ")"
            case .any(let nodes): "(" + nodes.map(\.fts5).joined(separator: " OR ") + ")"
            }
        }

        var condition: SearchCondition {
            switch self {
            case .term(let term): .needle(term.needle)
            case .all(let nodes): .all(nodes.map(\.condition))
            case .any(let nodes): .any(nodes.map(\.condition))
            }
        }

        /// Whether the index alone tells it (`Term.isPlainWord` of every term).
        var isPlain: Bool {
            switch self {
            case .term(let term): term.isPlainWord
            case .all(let nodes), .any(let nodes): nodes.allSatisfy(\.isPlain)
            }
        }

        var needles: [SearchNeedle] { condition.needles }
    }

    /// What the parser reads: a word or phrase (a `-` before it, a `*` after it noted), or a
    /// parenthesis.
    private enum Token {
        case word(String, quoted: Bool, excluded: Bool)
        case open(excluded: Bool)
        case close
    }

    private struct Parser {
        let text: String
        var position: String.Index
        /// Groups open where the parser stands.
        var depth = 0

        init(text: String) {
            self.text = text
            position = text.startIndex
        }

        mutating func parse() throws(StoreError) -> (
            String?, [String], [String], [SearchCondition], [SearchNeedle], [SearchNeedle]
        ) {
            var exclusions: [Term] = [], tags: [String] = [], excludedTags: [String] = [], passedOver: [String] = []
            let clauses = try sequence(
                exclusions: &exclusions, tags: &tags, excludedTags: &excludedTags, passedOver: &passedOver)
            guard !clauses.isEmpty || !tags.isEmpty else {
                if let word = passedOver.first, exclusions.isEmpty {
                    throw invalid("'\(word)' has no letters, digits or emoji to search for")
                }
                throw invalid(
                    exclusions.isEmpty && excludedTags.isEmpty
                        ? "nothing to search for"
                        : "only excluded words: give a word to find too")
            }
            let wanted = clauses.map { clause in
                clause.count == 1 ? clause[0].fts5 : Node.any(clause).fts5
            }.joined(separator: " AND ")
            let indexExclusions = exclusions.filter(\.isPlainWord)
            var expression: String? = wanted.isEmpty ? nil : wanted
            if let found = expression, !indexExclusions.isEmpty {
                expression = "(" + found + ") NOT (" + indexExclusions.map(\.fts5).joined(separator: " OR ") + ")"
            }
            let undecided = clauses.filter { !$0.allSatisfy(\.isPlain) }.map { Node(clauses: [$0]).condition }
            return (
                expression, tags, excludedTags, undecided, exclusions.filter { !$0.isPlainWord }.map(\.needle),
                clauses.flatMap { $0.flatMap(\.needles) }
            )
        }

        /// The clauses up to the end of the text, or of the group open (its `)` read); tags
        /// and exclusions stand only outside groups.
        mutating func sequence(
            exclusions: inout [Term], tags: inout [String], excludedTags: inout [String],
            passedOver: inout [String]
        ) throws(StoreError) -> [[Node]] {
            var clauses: [[Node]] = []
            var joinsPrevious = false, orMeetsOnlySymbols = false, lastWasTag = false
            let isGroup = depth > 0
            while let token = try nextToken() {
                let node: Node
                switch token {
                case .close:
                    if joinsPrevious, !orMeetsOnlySymbols { throw invalid("'OR' needs a word after it") }
                    return clauses
                case .open(let excluded):
                    if excluded { throw invalid("a group cannot be left out: leave out each of its words (-a -b)") }
                    var groupPassedOver: [String] = []
                    let inner = try sequence(
                        exclusions: &exclusions, tags: &tags, excludedTags: &excludedTags, passedOver: &groupPassedOver)
                    lastWasTag = false
                    guard !inner.isEmpty else {
                        guard let word = groupPassedOver.first else {
                            throw invalid("'()' holds nothing to search for")
                        }
                        passedOver.append(word)
                        orMeetsOnlySymbols = joinsPrevious
                        continue
                    }
                    node = Node(clauses: inner)
                case .word(let raw, let quoted, let excluded):
                    if raw == "OR", !quoted, !excluded {
                        if lastWasTag {
                            throw invalid("'OR' cannot join a tag: give tags with --tag, every one of them is wanted")
                        }
                        guard let last = clauses.last, !last.isEmpty, !joinsPrevious else {
                            throw invalid("'OR' needs a word before it")
                        }
                        joinsPrevious = true
                        continue
                    }
                    // `@tag` as a memo's text holds it, punctuation after it and all (`@bob,`).
                    if !quoted, let name = TagName.afterAt(raw), case let found = TagName.inlineTags(in: raw),
                        found.count == 1,
                        let tag = found.first, name.lowercased().hasPrefix(tag)
                    {
                        if isGroup { throw invalid("a tag cannot stand inside parentheses: give it outside them") }
                        if joinsPrevious { throw invalid("'OR' cannot join a tag: '\(raw)'") }
                        if excluded { excludedTags.append(tag) } else { tags.append(tag) }
                        lastWasTag = true
                        continue
                    }
                    lastWasTag = false
                    let isPrefix = raw.hasSuffix("*")
                    guard let term = Term(isPrefix ? String(raw.dropLast()) : raw, isPrefix: isPrefix) else {
                        // Passed over as if not typed: `a OR & b` is `a OR b`, and `a OR &` is `a`.
                        passedOver.append(raw)
                        orMeetsOnlySymbols = joinsPrevious
                        continue
                    }
                    if excluded {
                        if isGroup {
                            throw invalid("an excluded word cannot stand inside parentheses: give it outside them")
                        }
                        if joinsPrevious { throw invalid("'OR' cannot be followed by an excluded word") }
                        exclusions.append(term)
                        continue
                    }
                    node = .term(term)
                }
                if joinsPrevious {
                    clauses[clauses.count - 1].append(node)
                    joinsPrevious = false
                } else {
                    clauses.append([node])
                }
            }
            if isGroup { throw invalid("a parenthesis '(' is not closed") }
            if joinsPrevious, !orMeetsOnlySymbols { throw invalid("'OR' needs a word after it") }
            return clauses
        }

        /// A word or a quoted phrase, with a `-` before it or a `*` after it noted; or a `(` at
        /// a word's start, or a `)` that ends a word while a group is open.
        mutating func nextToken() throws(StoreError) -> Token? {
            while position < text.endIndex, text[position].isWhitespace { position = text.index(after: position) }
            guard position < text.endIndex else { return nil }
            if depth > 0, text[position] == ")" {
                position = text.index(after: position)
                depth -= 1
                return .close
            }
            var excluded = false
            if text[position] == "-", text.index(after: position) < text.endIndex,
                !text[text.index(after: position)].isWhitespace
            {
                excluded = true
                position = text.index(after: position)
            }
            if text[position] == "(" {
                position = text.index(after: position)
                depth += 1
                return .open(excluded: excluded)
            }
            if text[position] == "\"" {
                let start = text.index(after: position)
                guard let end = text[start...].firstIndex(of: "\"") else { throw invalid("a quote (\") is not closed") }
                position = text.index(after: end)
                var phrase = String(text[start..<end])
                if position < text.endIndex, text[position] == "*" {
                    phrase += "*"
                    position = text.index(after: position)
                }
                return .word(phrase, quoted: true, excluded: excluded)
            }
            let start = position
            while position < text.endIndex, !text[position].isWhitespace, text[position] != "\"",
                !closesGroup(at: position)
            {
                position = text.index(after: position)
            }
            return .word(String(text[start..<position]), quoted: false, excluded: excluded)
        }

        /// Whether the `)` at `index` closes an open group: only `)`s follow it to the word's end.
        private func closesGroup(at index: String.Index) -> Bool {
            guard depth > 0, text[index] == ")" else { return false }
            let rest = text[index...].prefix { !$0.isWhitespace && $0 != "\"" }
            return rest.allSatisfy { $0 == ")" } && rest.count <= depth
        }

        func invalid(_ reason: String) -> StoreError {
            .invalidSearch(query: text, reason: reason)
        }
    }
}
