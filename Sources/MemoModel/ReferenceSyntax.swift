/// What else a `#` and digits can be in a document, by its language: the rules that tell a
/// memo reference from Markdown code or a hex colour (`MemoReference`).
package struct ReferenceSyntax: Equatable, Sendable {
    /// Markdown: code spans and fenced code blocks are code, not references.
    package var isMarkdown = false
    /// Style sheets and markup: `#` and 3, 4, 6 or 8 digits is a colour.
    package var hasHexColours = false
    /// Markup and Markdown: what a tag holds (`<a href="#12">`, `<img src=#3>`) is attributes,
    /// whose `#` is a URL's fragment, an id or a colour.
    package var hasTags = false

    /// Plain text, commit messages, code comments: only the rules every document has.
    package static let plain = ReferenceSyntax()

    package init(isMarkdown: Bool = false, hasHexColours: Bool = false, hasTags: Bool = false) {
        self.isMarkdown = isMarkdown
        self.hasHexColours = hasHexColours
        self.hasTags = hasTags || isMarkdown
    }

    /// The syntax of a document, from its language id or else its file name's extension.
    package init(languageId: String, uri: String) {
        let language = languageId.lowercased()
        let suffix = uri.split(separator: ".").last.map { $0.lowercased() } ?? ""
        isMarkdown = ["markdown", "md"].contains(language) || ["md", "markdown"].contains(suffix)
        hasHexColours = Self.colourLanguages.contains(language) || Self.colourExtensions.contains(suffix)
        hasTags = isMarkdown || Self.markupLanguages.contains(language) || Self.markupExtensions.contains(suffix)
    }

    private static let markupLanguages: Set = ["html", "xhtml", "xml", "svg", "vue", "svelte"]
    private static let markupExtensions: Set = ["html", "htm", "xhtml", "xml", "svg", "vue", "svelte"]

    private static let colourLanguages: Set = [
        "css", "scss", "sass", "less", "stylus", "html", "xhtml", "xml", "svg", "vue", "svelte"
    ]
    private static let colourExtensions: Set = [
        "css", "scss", "sass", "less", "styl", "html", "htm", "xhtml", "xml", "svg", "vue", "svelte"
    ]
}
