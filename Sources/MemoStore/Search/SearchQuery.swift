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
    /// What a memo's folded text must hold beyond what the index tells: from each clause
    /// with a term the index cannot decide (`isPlainWord`), one of its needles.
    package let required: [[SearchNeedle]]
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


    private struct Term {
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
                let prefix = (isPrefix && number == phrases.count - 1) || (tokens.count == 1 && SearchText.isSingleCJKCharacter(tokens[0]))
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
                && (phrases[0].count == 1 || phrases[0].allSatisfy { $0.unicodeScalars.allSatisfy(Version3SearchRule.isCJK) })
                && needle.text.unicodeScalars.allSatisfy { $0.properties.isAlphabetic || $0.properties.numericType != nil }
        }

        /// `text` cut after each run of Han, kana or Hangul: the index holds such a run as
        /// pairs and then its last character alone, so the tokens on either side of a run's
        /// end (`東京|tower`, `漢字|; 한국어`) are not next to each other there.
        static func parts(of text: String) -> [String] {
            var parts: [String] = [], part = String.UnicodeScalarView(), lastWasCJK = false
            for scalar in text.unicodeScalars {
                let isCJK = Version3SearchRule.isCJK(scalar)
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

    private struct Parser {
        let text: String
        var position: String.Index

        init(text: String) {
            self.text = text
            position = text.startIndex
        }

        mutating func parse() throws(StoreError) -> (String?, [String], [String], [[SearchNeedle]], [SearchNeedle], [SearchNeedle]) {
            var clauses: [[Term]] = [], exclusions: [Term] = []
            var tags: [String] = [], excludedTags: [String] = []
            var joinsPrevious = false, orMeetsOnlySymbols = false, lastWasTag = false, passedOver: [String] = []
            while let (raw, quoted, excluded) = try nextWord() {
                if raw == "OR", !quoted, !excluded {
                    if lastWasTag { throw invalid("'OR' cannot join a tag: give tags with --tag, every one of them is wanted") }
                    guard let last = clauses.last, !last.isEmpty, !joinsPrevious else { throw invalid("'OR' needs a word before it") }
                    joinsPrevious = true
                    continue
                }
                // `@tag` as a memo's text holds it, punctuation after it and all (`@bob,`).
                if !quoted, let name = TagName.afterAt(raw), case let found = TagName.inlineTags(in: raw), found.count == 1,
                   let tag = found.first, name.lowercased().hasPrefix(tag) {
                    if joinsPrevious { throw invalid("'OR' cannot join a tag: '\(raw)'") }
                    if excluded { excludedTags.append(tag) } else { tags.append(tag) }
                    lastWasTag = true
                    continue
                }
                lastWasTag = false
                guard let term = self.term(raw) else {
                    // Passed over as if not typed: `a OR & b` is `a OR b`, and `a OR &` is `a`.
                    passedOver.append(raw)
                    orMeetsOnlySymbols = joinsPrevious
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
            if joinsPrevious, !orMeetsOnlySymbols { throw invalid("'OR' needs a word after it") }
            guard !clauses.isEmpty || !tags.isEmpty else {
                if let word = passedOver.first, exclusions.isEmpty { throw invalid("'\(word)' has no letters, digits or emoji to search for") }
                throw invalid(exclusions.isEmpty && excludedTags.isEmpty ? "nothing to search for"
                                                                          : "only excluded words: give a word to find too")
            }
            let wanted = clauses.map { clause in
                clause.count == 1 ? clause[0].fts5 : "(" + clause.map(\.fts5).joined(separator: " OR ") + ")"
            }.joined(separator: " AND ")
            let indexExclusions = exclusions.filter(\.isPlainWord)
            var expression: String? = wanted.isEmpty ? nil : wanted
            if let found = expression, !indexExclusions.isEmpty {
                expression = "(" + found + ") NOT (" + indexExclusions.map(\.fts5).joined(separator: " OR ") + ")"
            }
            let undecided = clauses.filter { !$0.allSatisfy(\.isPlainWord) }.map { $0.map(\.needle) }
            return (expression, tags, excludedTags, undecided, exclusions.filter { !$0.isPlainWord }.map(\.needle),
                    clauses.flatMap { $0.map(\.needle) })
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
            let phrases = Term.parts(of: words).map(SearchText.tokens).filter { !$0.isEmpty }
            guard !phrases.isEmpty else { return nil }
            return Term(phrases: phrases, isPrefix: isPrefix, needle: SearchNeedle(SearchText.folded(words).trimmingSpaces(), isPrefix: isPrefix))
        }

        func invalid(_ reason: String) -> StoreError {
            .invalidSearch(query: text, reason: reason)
        }
    }
}
