/// A search as a person types it: an FTS5 `MATCH` expression that narrows the memos, and what
/// their folded text must then hold, so a result contains what was typed.
///
/// Words must all be found; `"a phrase"` finds the words in that order; `word*` finds words
/// starting so; `a OR b` finds either; `-word` (or `-"a phrase"`) leaves out memos that
/// have it; `@tag` finds memos with that tag (inline or given), `-@tag` leaves them out. The
/// index holds words of letters, digits and emoji; what else a word holds (`C++`, `$100`) is
/// checked in the memo's text (`MemoStore.matchesSearch`), case, accents and compatibility
/// forms folded as the index folds them (`SearchText.folded`). A word with no letters, digits
/// or emoji (`&`, `-`) is passed over when others remain.
///
/// Every word goes into the expression as a quoted FTS5 string (double quotes doubled), so
/// user text can never be read as FTS5 syntax, and everything is bound as a parameter, never
/// pasted into SQL. See https://www.sqlite.org/fts5.html#full_text_query_syntax
package struct SearchQuery: Equatable, Sendable {
    /// The FTS5 expression to bind to `MATCH`; nil when the search is of tags alone.
    package let expression: String?
    /// Tags the memos must carry, and must not.
    package let tags: [String]
    package let excludedTags: [String]
    /// What a memo's folded text must hold: from each clause, one of its texts.
    package let required: [[String]]
    /// What it must not hold (excluded words that the index cannot leave out exactly).
    package let excluded: [String]

    /// Compiles `text`, or explains in memo's words why it cannot be searched.
    package init(parsing text: String) throws(StoreError) {
        var parser = Parser(text: text)
        let parsed = try parser.parse()
        (expression, tags, excludedTags, required, excluded) = parsed
    }

    /// The folded texts, for matching and for showing where a memo matched.
    package var texts: [String] { required.flatMap { $0 } }

    private struct Term {
        var tokens: [String]
        var isPrefix: Bool
        /// The folded text a memo must hold.
        var text: String

        /// The term as an FTS5 phrase: quoted tokens, and `*` for a prefix. A lone CJK
        /// character is held by the index only as the start of a pair, so it is a prefix.
        var fts5: String {
            let phrase = "\"" + tokens.map { $0.replacing("\"", with: "\"\"") }.joined(separator: " ") + "\""
            let prefix = isPrefix || (tokens.count == 1 && SearchText.isSingleCJKCharacter(tokens[0]))
            return prefix ? phrase + " *" : phrase
        }

        /// Whether the index alone tells it: its words are all it holds.
        var isPlainWords: Bool {
            text.split(separator: " ").allSatisfy { word in word.unicodeScalars.allSatisfy { $0.properties.isAlphabetic || $0.properties.numericType != nil } }
        }
    }

    private struct Parser {
        let text: String
        var position: String.Index

        init(text: String) {
            self.text = text
            position = text.startIndex
        }

        mutating func parse() throws(StoreError) -> (String?, [String], [String], [[String]], [String]) {
            var clauses: [[Term]] = [], exclusions: [Term] = []
            var tags: [String] = [], excludedTags: [String] = []
            var joinsPrevious = false, passedOver: [String] = []
            while let (raw, quoted, excluded) = try nextWord() {
                if raw == "OR", !quoted, !excluded {
                    guard let last = clauses.last, !last.isEmpty, !joinsPrevious else { throw invalid("'OR' needs a word before it") }
                    joinsPrevious = true
                    continue
                }
                if !quoted, raw.hasPrefix("@"), raw.count > 1 {
                    if joinsPrevious { throw invalid("'OR' cannot join a tag: '\(raw)'") }
                    guard let tag = try? TagName.normalize(String(raw.dropFirst())) else { throw invalid("'\(raw)' is not a tag") }
                    if excluded { excludedTags.append(tag) } else { tags.append(tag) }
                    continue
                }
                guard let term = self.term(raw) else {
                    passedOver.append(raw)
                    continue
                }
                if excluded {
                    if joinsPrevious { throw invalid("'OR' cannot be followed by an excluded word") }
                    exclusions.append(term)
                } else if joinsPrevious {
                    clauses[clauses.count - 1].append(term)
                    joinsPrevious = false
                } else {
                    clauses.append([term])
                }
            }
            if joinsPrevious { throw invalid("'OR' needs a word after it") }
            guard !clauses.isEmpty || !tags.isEmpty else {
                if let word = passedOver.first, exclusions.isEmpty { throw invalid("'\(word)' has no letters, digits or emoji to search for") }
                throw invalid(exclusions.isEmpty && excludedTags.isEmpty ? "nothing to search for"
                                                                          : "only excluded words: give a word to find too")
            }
            let wanted = clauses.map { clause in
                clause.count == 1 ? clause[0].fts5 : "(" + clause.map(\.fts5).joined(separator: " OR ") + ")"
            }.joined(separator: " AND ")
            let indexExclusions = exclusions.filter(\.isPlainWords)
            var expression: String? = wanted.isEmpty ? nil : wanted
            if let found = expression, !indexExclusions.isEmpty {
                expression = "(" + found + ") NOT (" + indexExclusions.map(\.fts5).joined(separator: " OR ") + ")"
            }
            return (expression, tags, excludedTags, clauses.map { $0.map(\.text) }, exclusions.filter { !$0.isPlainWords }.map(\.text))
        }

        /// A word or a quoted phrase, with a `-` before it or a `*` after it noted.
        mutating func nextWord() throws(StoreError) -> (String, quoted: Bool, excluded: Bool)? {
            while position < text.endIndex, text[position].isWhitespace { position = text.index(after: position) }
            guard position < text.endIndex else { return nil }
            var excluded = false
            if text[position] == "-", text.index(after: position) < text.endIndex, !text[text.index(after: position)].isWhitespace {
                excluded = true
                position = text.index(after: position)
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
                return (phrase, true, excluded)
            }
            let start = position
            while position < text.endIndex, !text[position].isWhitespace, text[position] != "\"" {
                position = text.index(after: position)
            }
            return (String(text[start..<position]), false, excluded)
        }

        /// The term of a word or phrase; nil for one with no letters, digits or emoji.
        func term(_ raw: String) -> Term? {
            let isPrefix = raw.hasSuffix("*")
            let words = isPrefix ? String(raw.dropLast()) : raw
            let tokens = SearchText.tokens(of: words)
            guard !tokens.isEmpty else { return nil }
            return Term(tokens: tokens, isPrefix: isPrefix, text: SearchText.folded(words).trimmingSpaces())
        }

        func invalid(_ reason: String) -> StoreError {
            .invalidSearch(query: text, reason: reason)
        }
    }
}
