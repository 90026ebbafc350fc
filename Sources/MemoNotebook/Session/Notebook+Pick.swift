import Glibc
import MemoStore

/// `pick`, and `show`, `edit`, `delete` and `tag` with `-i` (docs/REFERENCE.md, Picking
/// memos): the memos are known only once a person has picked them, here, as the command runs.
extension Notebook {
    /// Offers the memos `request` selects to `picker`, then acts on those picked with `run`
    /// (the notebook's own dispatch). Nothing picked is `.nothingPicked`: nothing happens.
    func pick(_ request: PickRequest, then run: (Command) throws -> Outcome) throws -> Outcome {
        guard let picker else {
            throw CommandError.invalid(
                "picking memos needs a person at a terminal (fzf), which scripts and the server have not: "
                    + "name the memos by id (memo list --ids gives them)")
        }
        let query = try query(for: request.source)
        let memos = try store.memos(query).collect()
        guard !memos.isEmpty else { throw CommandError.invalid("no memo to pick from: none is selected") }
        let lines = TextRenderer(style: TextStyle(width: nil, color: false, displayTime: displayTime))
        let search = query.filter.search
        let offered = try memos.map { memo in
            let text = try store.readableText(of: memo)
            return lines.listLine(memo, text: text, snippet: search.flatMap { SearchSnippet(of: text, for: $0) })
        }
        let chosen = try picker.pick(offered, preview: try preview(of: memos, shownBy: lines))
        // Each line starts with its memo's `#ID`, so no two are alike.
        let ids = try Self.ids(of: chosen, offered: Dictionary(zip(offered, memos.map(\.id))) { first, _ in first })
        guard !ids.isEmpty else { return .nothingPicked }
        return try act(on: ids, request.action, run)
    }

    /// The memos of the lines picked, when every line is one of those offered; anything else
    /// (a query, a key name, lines run together) means fzf's settings changed what it
    /// prints, and nothing is done rather than act on a memo no one picked.
    private static func ids(of chosen: [String], offered: [String: Int64]) throws -> [Int64] {
        try chosen.map { line in
            guard let id = offered[line] else { throw CommandError.invalid(misreadPick) }
            return id
        }
    }

    /// What is done with the memos picked: the one place that decides it.
    private func act(on ids: [Int64], _ action: PickAction, _ run: (Command) throws -> Outcome) throws -> Outcome {
        switch action {
        case .printIDs: return .picked(ids)
        case .show: return try run(.show(ids: ids.map(MemoReference.id)))
        case .delete: return try run(.delete(ids: ids.map(MemoReference.id)))
        case .edit:
            // One memo is edited as `edit ID` edits it; several, in one buffer as a bulk edit.
            return try run(ids.count == 1 ? .edit(id: .id(ids[0]), text: nil) : .editMany(.ids(ids)))
        case .tag(let tags):
            return .retaggedEach(
                try store.recordingChange(.tag, at: changeTime) {
                    try ids.map { try store.addTags(tags, to: $0, at: changeTime) }
                })
        }
    }

    private func query(for source: PickSource) throws -> MemoQuery {
        switch source {
        case .list(let arguments): try query(for: arguments)
        case .search(let arguments): try query(for: arguments)
        }
    }

    /// `memo show` of the line under the cursor: this program run on the same store file, or
    /// the texts it would show where another process would not see what this session sees:
    /// a store in memory, which no other process can open, an encrypted store, which this
    /// process holds alone, and an open batch, whose changes the file does not hold yet.
    private func preview(of memos: [Memo], shownBy renderer: TextRenderer) throws -> PickPreview {
        if !hasOpenBatch, !isStoreSealed, case .file(let path) = storeLocation, let program = Self.thisProgram {
            return .showCommand(program: program, store: path)
        }
        var texts: [String: String] = [:]
        for memo in memos { texts["#\(memo.id)"] = renderer.block(try shown(memo)) }
        return .texts(texts)
    }

    /// The one line said where the picker printed something other than lines it was offered.
    static let misreadPick =
        "fzf printed lines that are not memos it was offered, so nothing was done: "
        + "an option in FZF_DEFAULT_OPTS may change what fzf prints"

    /// The path of the running program, from `/proc/self/exe`.
    private static var thisProgram: String? {
        var buffer = [CChar](repeating: 0, count: Int(PATH_MAX) + 1)
        let count = readlink("/proc/self/exe", &buffer, buffer.count - 1)
        guard count > 0 else { return nil }
        return String(decoding: buffer[..<count].map { UInt8(bitPattern: $0) }, as: UTF8.self)
    }
}
