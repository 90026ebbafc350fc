/// A fenced code block's fence (CommonMark): up to three spaces, then three or more
/// backticks or tildes; a backtick fence's info string holds no backtick. What is between an
/// opening fence and its closing one is code: the Markdown import keeps it whole, and the
/// language server finds no memo references in it.
package struct MarkdownFence: Equatable, Sendable {
    let mark: Character
    let length: Int

    /// The fence `line` opens, or nil.
    package init?(opening line: some StringProtocol) {
        let indented = line.drop { $0 == " " }
        guard line.count - indented.count <= 3, let mark = indented.first, mark == "`" || mark == "~" else {
            return nil
        }
        let run = indented.prefix { $0 == mark }
        guard run.count >= 3, mark == "~" || !indented.dropFirst(run.count).contains("`") else { return nil }
        self.mark = mark
        length = run.count
    }

    /// Whether `line` closes a block this fence opened: the same mark, at least as many, and
    /// nothing after but spaces.
    package func isClosed(by line: some StringProtocol) -> Bool {
        let indented = line.drop { $0 == " " }
        let run = indented.prefix { $0 == mark }
        return line.count - indented.count <= 3 && run.count >= length
            && indented.dropFirst(run.count).allSatisfy { $0 == " " }
    }

    /// A line as a fence in a block quote or a list item stands: without the quote marks,
    /// list markers (`-`, `*`, `+`, `1.`, `1)`) and indentation before it.
    package static func unnested(_ text: String) -> Substring {
        var rest = text[...]
        while true {
            rest = rest.drop { $0 == " " || $0 == "\t" }
            if rest.first == ">" {
                rest = rest.dropFirst()
            } else if let marker = rest.first, "-*+".contains(marker), rest.dropFirst().first == " " {
                rest = rest.dropFirst(2)
            } else if let number = Optional(rest.prefix { $0.isASCII && $0.isNumber }), (1...9).contains(number.count),
                let mark = rest.dropFirst(number.count).first, mark == "." || mark == ")",
                rest.dropFirst(number.count + 1).first == " "
            {
                rest = rest.dropFirst(number.count + 2)
            } else {
                return rest
            }
        }
    }
}
