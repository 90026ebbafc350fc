import MemoModel

extension MemoStore {
    /// What a handle names in a store: no memo, one, or several (a prefix too short to
    /// tell them apart here).
    package enum HandleMatch: Equatable, Sendable {
        case none
        case one(uuid: String)
        case several

        /// The memo's uuid when the handle names one.
        package var uuid: String? {
            if case .one(let uuid) = self { uuid } else { nil }
        }
    }
}

/// Memos by their stable handles (`MemoHandle`, docs/REFERENCE.md, Links): which memo a
/// handle names, and the handle a store gives a memo. Both are a range scan of the uuid
/// index, a few pages whatever the store's size.
struct MemoHandles {
    let database: Database

    /// The memo whose uuid starts with `handle`, if one memo's does.
    func match(_ handle: MemoHandle) throws(StoreError) -> MemoStore.HandleMatch {
        let uuids = try uuids(named: handle, limit: 2)
        return switch uuids.count {
        case 0: .none
        case 1: .one(uuid: uuids[0])
        default: .several
        }
    }

    /// Up to `limit` uuids of memos here that start with `handle`, in order: those a handle
    /// too short to tell them apart names.
    func uuids(named handle: MemoHandle, limit: Int) throws(StoreError) -> [String] {
        try StoreError.wrapping {
            let statement = try database.cached(
                "SELECT uuid FROM memo WHERE uuid >= ?1 AND uuid < ?2 ORDER BY uuid LIMIT ?3")
            try statement.bind([.text(handle.uuidPrefix), .text(handle.uuidPrefixEnd), .integer(Int64(limit))])
            var uuids: [String] = []
            while try statement.step() { uuids.append(statement.string(at: 0)) }
            return uuids
        }
    }

    /// The ids and uuids of up to `limit` memos whose uuid starts with `digits` (0 to 31
    /// hexadecimal digits, dashes left out), newest first: what completion after `memo:`
    /// offers, and which memos a handle several share names.
    func memos(uuidStartingWith digits: String, limit: Int) throws(StoreError) -> [(id: Int64, uuid: String)] {
        try StoreError.wrapping {
            let lower = MemoHandle.dashed(digits)
            let statement: Statement
            if !lower.isEmpty {
                statement = try database.cached(
                    "SELECT id, uuid FROM memo WHERE uuid >= ?1 AND uuid < ?2 ORDER BY id DESC LIMIT ?3")
                try statement.bind([
                    .text(lower), .text(MemoHandle.end(ofUUIDPrefix: lower)), .integer(Int64(limit))
                ])
            } else {
                statement = try database.cached("SELECT id, uuid FROM memo ORDER BY id DESC LIMIT ?1")
                try statement.bind([.integer(Int64(limit))])
            }
            var memos: [(id: Int64, uuid: String)] = []
            while try statement.step() { memos.append((statement.int64(at: 0), statement.string(at: 1))) }
            return memos
        }
    }

    /// The shortest handle of at least 8 digits that names `uuid` alone here: one digit
    /// more than it shares with the uuids next to it in order. A uuid no memo here has (a
    /// deleted memo's) gets the handle that would name it if it came back.
    func handle(of uuid: String) throws(StoreError) -> MemoHandle {
        try StoreError.wrapping {
            let before =
                try database.cached("SELECT max(uuid) FROM memo WHERE uuid < ?1")
                .firstRow([.text(uuid)]) { $0.isNull(at: 0) ? nil : $0.string(at: 0) } ?? nil
            let after =
                try database.cached("SELECT min(uuid) FROM memo WHERE uuid > ?1")
                .firstRow([.text(uuid)]) { $0.isNull(at: 0) ? nil : $0.string(at: 0) } ?? nil
            let shared = [before, after].compactMap { $0 }.map { MemoHandle.sharedDigits($0, uuid) }.max() ?? 0
            return MemoHandle(prefixOf: uuid, length: shared + 1)
        }
    }
}
