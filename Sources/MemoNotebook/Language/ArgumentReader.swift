import MemoStore

/// Reads one command's options and arguments from a word source, by its `CommandSyntax`.
struct ArgumentReader<Source: WordSource> {
    private var words: Source
    let syntax: CommandSyntax
    /// Option values by the option's first name, in the order given.
    private(set) var options: [String: [Word]] = [:]
    private var optionsEnded = false
    /// Options of another form of the command, each with the message that says so, to give
    /// in place of "unknown option" (`edit ID` refuses the filters of `edit` without an id).
    var optionsOfAnotherForm: [String: String] = [:]
    /// The last date option given its value after `=` (`--since=2`), by its name, with that
    /// one-word value: an unexpected argument after it may be the rest of the date.
    private var inlineDate: (option: String, value: Word)?

    init(words: Source, syntax: CommandSyntax) {
        self.words = words
        self.syntax = syntax
    }

    /// Reads options up to the first argument that is not one; returns that argument.
    mutating func nextArgument() throws(CommandError) -> Word? {
        while let word = try words.nextWord() {
            if optionsEnded || !word.isOption { return word }
            if word.text == "--" {
                optionsEnded = true
                continue
            }
            try readOption(word)
        }
        return nil
    }

    /// Every argument that is left, reading options among them.
    mutating func remainingArguments() throws(CommandError) -> [Word] {
        var arguments: [Word] = []
        while let word = try nextArgument() { arguments.append(word) }
        return arguments
    }

    /// Reads options, then takes the words up to the next option as one text argument, then
    /// the options after it: `add Buy bread --tag shop`. Text need not lex as words (`Don't`
    /// has a lone quote), so a word that fails to lex ends the options before it. After the
    /// text, `--` ends the options (it and what follows stay text); before it, `--` is
    /// dropped (`add -- --tag is text`). A word with one dash that is no option of the
    /// command is text (`-5 degrees`); one with two is an unknown option.
    /// With `raw`, quotes are kept as typed and a word that is not one of the command's
    /// options starts the text (a search's phrases and `-word` exclusions).
    mutating func text(raw: Bool = false) throws(CommandError) -> Word? {
        while !optionsEnded {
            var lookahead = words
            guard let word = try? lookahead.nextWord(), word.isOption else { break }
            if raw, word.text != "--", syntax.option(spelledBy: word.text) == nil { break }
            words = lookahead
            if word.text == "--" { optionsEnded = true } else { try readOption(word) }
        }
        if optionsEnded { return words.remainingText(raw: raw) }
        var scan = words
        while true {
            let beforeWord = scan
            guard let word = scan.nextRawWord(), word.text != "--" else { return words.remainingText(raw: raw) }
            guard word.isOption, word.text.hasPrefix("--") || syntax.option(spelledBy: word.text) != nil else {
                continue
            }
            if syntax.option(spelledBy: word.text) == nil {
                let refusal = optionsOfAnotherForm[word.text] ?? "unknown option '\(word.text)' for '\(syntax.name)'"
                throw .usage(refusal + " (write -- before a text that holds it)", range: word.range)
            }
            let text = words.text(upTo: beforeWord, raw: raw)
            words = beforeWord
            try finish()
            return text
        }
    }

    /// The words of a search, as typed, with the command's options read wherever they stand
    /// before `--` (`search heart -n 1`, `-n1`). A word that looks like an option but is not
    /// one of the command's is a word of the search when it has one dash (`-word` leaves memos
    /// out, and so does `-nice`: a short option's attached value starts with a digit) and an
    /// unknown option when it has two; `-rank`, an option with a dash missing, is refused.
    mutating func searchWords() throws(CommandError) -> [Word] {
        var found: [Word] = []
        while let word = words.nextRawWord() {
            if !optionsEnded, word.isOption {
                if word.text == "--" {
                    optionsEnded = true
                    continue
                }
                if let spelled = syntax.option(spelledBy: word.text),
                    word.text.hasPrefix("--") || spelled.inlineValue?.first.map({ $0.isASCII && $0.isNumber }) ?? true
                {
                    try readOption(word)
                    continue
                }
                if word.text.hasPrefix("--") { throw .unknownOption(word, command: syntax.name) }
                if syntax.option(named: "-" + word.text) != nil {
                    throw .usage(
                        "'\(word.text)' leaves out memos with '\(word.text.dropFirst())'; for the option, write '-\(word.text)' "
                            + "(or put the word after --)", range: word.range)
                }
            }
            found.append(word)
        }
        return found
    }

    /// Fails when arguments remain.
    mutating func finish() throws(CommandError) {
        if let extra = try nextArgument() { throw unexpected(extra, then: try remainingArguments()[...]) }
    }

    /// The error for an argument the command does not take, `extra`, before the `rest`. After
    /// a date option given with `=`, whose value is one word by design, it says to drop the `=`
    /// when the arguments would have continued the date (`list --since=2 days ago`).
    func unexpected(_ extra: Word, then rest: ArraySlice<Word>) -> CommandError {
        let plain = CommandError.unexpected(extra, command: syntax.name)
        guard let (option, value) = inlineDate else { return plain }
        let words = [value, extra] + rest.prefix(DateArgument.mostWords - 2)
        let dates = (2...words.count).reversed().lazy.map { Word(joining: Array(words.prefix($0))).text }
        guard let date = dates.first(where: { if case .success = DateWords.read($0) { true } else { false } }) else {
            return plain
        }
        return .usage(
            plain.message + " (a date of several words goes without '=': \(option) \(date))", range: extra.range)
    }

    func flag(_ name: String) -> Bool {
        options[name] != nil
    }

    func values(_ name: String) -> [Word] {
        options[name] ?? []
    }

    /// The single value of an option, or nil when it was not given.
    func value(_ name: String) -> Word? {
        options[name]?.last
    }

    private mutating func readOption(_ word: Word) throws(CommandError) {
        guard let (option, inlineValue) = syntax.option(spelledBy: word.text) else {
            if let refusal = optionsOfAnotherForm[word.text] { throw .usage(refusal, range: word.range) }
            throw .unknownOption(word, command: syntax.name)
        }
        guard option.valueName != nil else {
            if inlineValue != nil { throw .usage("option '\(option.name)' takes no value", range: word.range) }
            options[option.name, default: []].append(word)
            return
        }
        let value: Word
        if let inlineValue {
            value = Word(text: inlineValue, range: word.range, isLiteral: true)
            if option.takesDate { inlineDate = (option.name, value) }
        } else if option.takesDate, let date = try dateValue() {
            value = date
        } else if let next = try words.nextWord() {
            value = next
        } else {
            throw .usage("option '\(option.name)' needs a value", range: word.range)
        }
        if !option.isRepeatable, options[option.name] != nil {
            throw .usage("option '\(option.name)' is given twice", range: word.range)
        }
        options[option.name, default: []].append(value)
    }

    /// A date option's value: the longest run of the next words that reads as one date
    /// (`--since 2 days ago -n 3`, `--date yesterday 21:30 Called mom`), or nil at the end.
    /// When no run reads, the error quotes the words up to the first that no date could go
    /// on with (`2 dayz`), so it names what was typed without the text after it.
    private mutating func dateValue() throws(CommandError) -> Word? {
        guard let first = try words.nextWord() else { return nil }
        var run = [(word: first, rest: words)]
        var lookahead = words
        while run.count < DateArgument.mostWords, let next = try? lookahead.nextWord(), !next.isOption {
            run.append((next, lookahead))
        }
        for count in stride(from: run.count, to: 0, by: -1) {
            let value = Word(joining: run.prefix(count).map(\.word))
            if case .success = DateWords.read(value.text) {
                words = run[count - 1].rest
                return value
            }
        }
        let quoted = (1...run.count).first { DateWords.isDeadEnd(Word(joining: run.prefix($0).map(\.word)).text) }
        throw DateArgument.invalid(Word(joining: run.prefix(quoted ?? run.count).map(\.word)))
    }
}

extension Word {
    /// Words read as one value, separated by spaces: the words of a date.
    init(joining words: [Word]) {
        let range = words.first?.range.flatMap { first in words.last?.range.map { first.lowerBound..<$0.upperBound } }
        self.init(text: words.map(\.text).joined(separator: " "), range: range, isLiteral: true)
    }
}
