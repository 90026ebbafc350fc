/// `pick`, and `show`, `edit`, `delete` or `tag` with `-i`: the memos a person chooses
/// among, and what is done with the ones chosen (docs/REFERENCE.md, Picking memos). The
/// parser cannot know which memos those are: the notebook asks when it runs the command.
package struct PickRequest: Equatable, Sendable {
    package var source: PickSource
    package var action: PickAction
}

/// The memos offered: those `list` would give, or with a query those `search` would.
package enum PickSource: Equatable, Sendable {
    case list(ListArguments)
    case search(SearchArguments)
}

/// What is done with the memos picked.
package enum PickAction: Equatable, Sendable {
    /// `pick`: print their ids, one a line.
    case printIDs
    case show, edit, delete
    /// `tag -i TAG...`: tag each of them.
    case tag([String])
}
