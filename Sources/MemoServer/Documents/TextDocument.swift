/// An open `*.memo` document, kept in full (the server asks for full text sync).
struct TextDocument {
    let uri: String
    private(set) var lines: [String]

    init(uri: String, text: String) {
        self.uri = uri
        lines = Self.lines(of: text)
    }

    mutating func replaceText(with text: String) {
        lines = Self.lines(of: text)
    }

    func line(_ number: Int) -> String? {
        lines.indices.contains(number) ? lines[number] : nil
    }

    /// Lines split at `\n`, `\r\n` or `\r`, as LSP counts them.
    private static func lines(of text: String) -> [String] {
        text.split(omittingEmptySubsequences: false, whereSeparator: \.isNewline).map(String.init)
    }
}
