extension ImportSource {
    /// What an import read, as its summary names it: `a jrnl export`, `12 Markdown notes
    /// in notes/ (2 other files left out: a.png, b.txt)`, `a Markdown note`. Paths are
    /// shown as `TerminalText.row` shows any text from a file.
    var wording: String {
        switch self {
        case .jrnl: return "a jrnl export"
        case .notes(nil, _, _, _): return "a Markdown note"
        case .notes(let folder?, let files, let leftOut, let leftOutCount):
            var text = "\(files) Markdown note\(files == 1 ? "" : "s") in \(TerminalText.row(folder))"
            if leftOutCount > 0 {
                let names = leftOut.map(TerminalText.row).joined(separator: ", ")
                text += " (\(leftOutCount) other file\(leftOutCount == 1 ? "" : "s") left out: \(names)"
                text += leftOutCount > leftOut.count ? ", …)" : ")"
            }
            return text
        }
    }

    /// The members `--json` adds to an import's summary: `source` (`jrnl`, `markdown`), and
    /// for a folder its `folder`, `notes` and the `leftOut` count and first names.
    var jsonMembers: [(String, JSONValue)] {
        switch self {
        case .jrnl: return [("source", .string("jrnl"))]
        case .notes(let folder, let files, let leftOut, let leftOutCount):
            return [
                ("source", .string("markdown")), ("folder", folder.map(JSONValue.string) ?? .null),
                ("notes", .integer(Int64(files))), ("leftOut", .integer(Int64(leftOutCount))),
                ("leftOutNames", .array(leftOut.map(JSONValue.string)))
            ]
        }
    }
}
