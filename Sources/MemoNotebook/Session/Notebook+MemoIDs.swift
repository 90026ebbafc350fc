import MemoStore

/// Memos named on a command line by a stable form (docs/REFERENCE.md, Links): `memo:HANDLE`
/// and `memo:UUID` name the same memo in every store; here they become its id.
extension Notebook {
    /// The id here of the memo `reference` names. An id is taken as it is (the command says
    /// when no memo has it); a uuid or handle no memo here has, or a handle several memos
    /// share, is an error, the latter listing them with the handles that tell them apart.
    func memoID(_ reference: MemoReference) throws -> Int64 {
        switch reference {
        case .id(let id):
            return id
        case .uuid(let uuid):
            guard let memo = try store.memo(uuid: uuid) else { throw CommandError.invalid("no memo memo:\(uuid) here") }
            return memo.id
        case .handle(let handle):
            let uuids = try store.uuids(named: handle, limit: Self.namedAmongSeveral)
            guard let first = uuids.first else { throw CommandError.invalid("no memo \(handle) here") }
            guard uuids.count > 1 else { return try existing(uuid: first).id }
            let named = try uuids.map { uuid throws -> String in
                let memo = try existing(uuid: uuid)
                let title = TerminalText.row(MemoContent.title(of: memo.content))
                return "#\(memo.id) (\(try store.handle(ofUUID: uuid))) \(title)"
            }
            throw CommandError.invalid(
                "\(handle) names several memos: " + named.joined(separator: ", ")
                    + (uuids.count == Self.namedAmongSeveral ? ", …" : ""))
        }
    }

    /// The ids here of the memos `references` name.
    func memoIDs(_ references: [MemoReference]) throws -> [Int64] {
        try references.map(memoID)
    }

    /// How many of the memos a shared handle names its error lists.
    private static let namedAmongSeveral = 5

    private func existing(uuid: String) throws -> Memo {
        guard let memo = try store.memo(uuid: uuid) else { throw StoreError.unexpected("memo \(uuid) vanished") }
        return memo
    }
}
