/// The params of memo's notebook methods (docs/REFERENCE.md, Notebook methods), one type per
/// method.

struct AddParams: Decodable {
    let content: String
    let tags: [String]?
    /// A DATE to back-date the memo to, as `add --date` reads it.
    let date: String?
}

struct GetParams: Decodable {
    let id: Int64
}

/// `memo/list` and `memo/watch`: a fetch request.
struct ListParams: Decodable, Equatable {
    let order: String?
    let limit: Int?
    let offset: Int?
    let tag: String?
    let since: String?
    let until: String?
}

struct UpdateParams: Decodable {
    let id: Int64
    let content: String?
    let tags: [String]?
    /// A DATE to move the memo to, as `edit ID --date` reads it; `insertDate` names it as a
    /// memo's JSON does, for a client that sends back what it read.
    let date: String?
    let insertDate: String?
}

struct DeleteParams: Decodable {
    let ids: [Int64]
}

struct SearchParams: Decodable {
    let query: String
    let limit: Int?
}

struct ExecuteParams: Decodable {
    let line: String
}

struct UnwatchParams: Decodable {
    let watchId: Int
}
