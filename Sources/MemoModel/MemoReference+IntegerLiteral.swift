/// A number is a memo's id here: `show(ids: [1, 2])` names memos #1 and #2, as a command
/// line's `show 1 #2` does.
extension MemoReference: ExpressibleByIntegerLiteral {
    package init(integerLiteral id: Int64) {
        self = .id(id)
    }
}
