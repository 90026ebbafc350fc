/// A search as a person types it, compiled into an FTS5 `MATCH` expression.
///
/// Words must all be found; `"a phrase"` finds the words in that order; `word*` finds words
/// starting so; `a OR b` finds either; `-word` (or `-"a phrase"`) leaves out memos that
/// have it. Every word the user typed goes into the expression as a quoted FTS5 string
/// (double quotes doubled), so user text can never be read as FTS5 syntax, and the whole
/// expression is bound as a parameter, never pasted into SQL.
///
/// See https://www.sqlite.org/fts5.html#full_text_query_syntax
package struct SearchQuery: Equatable, Sendable {
    /// The FTS5 expression to bind to `MATCH`.
    package let expression: String

    /// Compiles `text`, or explains in memo's words why it cannot be searched.
    package init(parsing text: String) throws(StoreError) {
        var parser = Parser(text: text)
        expression = try parser.expression()
    }

    private struct Term {
        var tokens: [String]
        var isPrefix: Bool

        /// The term as an FTS5 phrase: quoted tokens, and `*` for a prefix. A lone CJK
        /// character is held by the index only as the start of a pair, so it is a prefix.
        var fts5: String {
            let phrase = "\"" + tokens.map { $0.replacing("\"", with: "\"\"") }.joined(separator: " ") + "\""
            let prefix = isPrefix || (tokens.count == 1 && SearchText.isSingleCJKCharacter(tokens[0]))
            return prefix ? phrase + " *" : phrase
        }
    }

    private struct Parser {
        let text: String
        var position: String.Index

        init(text: String) {
            self.text = text
            position = text.startIndex
        }

        mutating func expression() throws(StoreError) -> String {
            var clauses: [[Term]] = []
            var exclusions: [Term] = []
            var joinsPrevious = false
            while let (raw, quoted, excluded) = try nextWord() {
                if raw == "OR", !quoted, !excluded {
                    guard let last = clauses.last, !last.isEmpty, !joinsPrevious else {
                        throw invalid("'OR' needs a word before it")
                    }
                    joinsPrevious = true
                    continue
                }
                let term = try self.term(raw, quoted: quoted)
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
            guard !clauses.isEmpty else {
                throw invalid(exclusions.isEmpty ? "nothing to search for" : "only excluded words: give a word to find too")
            }
            let wanted = clauses.map { clause in
                clause.count == 1 ? clause[0].fts5 : "(" + clause.map(\.fts5).joined(separator: " OR ") + ")"
            }.joined(separator: " AND ")
            guard !exclusions.isEmpty else { return wanted }
            return "(" + wanted + ") NOT (" + exclusions.map(\.fts5).joined(separator: " OR ") + ")"
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

        func term(_ raw: String, quoted: Bool) throws(StoreError) -> Term {
            let isPrefix = raw.hasSuffix("*")
            let words = isPrefix ? String(raw.dropLast()) : raw
            let tokens = SearchText.tokens(of: words)
            guard !tokens.isEmpty else {
                throw invalid(quoted ? "the phrase \"\(words)\" has no letters or digits to search for"
                                     : "'\(raw)' has no letters or digits to search for")
            }
            return Term(tokens: tokens, isPrefix: isPrefix)
        }

        func invalid(_ reason: String) -> StoreError {
            .invalidSearch(query: text, reason: reason)
        }
    }
}
