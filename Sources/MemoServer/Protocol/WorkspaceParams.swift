/// The LSP messages about workspace folders and the files in them (`WorkspaceIndex`).

struct WorkspaceFolder: Decodable {
    let uri: String
}

/// `workspace/didChangeWorkspaceFolders`.
struct DidChangeWorkspaceFoldersParams: Decodable {
    struct Event: Decodable {
        let added: [WorkspaceFolder]
        let removed: [WorkspaceFolder]
    }
    let event: Event
}

/// `workspace/didChangeWatchedFiles`: each change's `type` is 1 created, 2 changed, 3 deleted.
struct DidChangeWatchedFilesParams: Decodable {
    struct Change: Decodable {
        let uri: String
        let type: Int
    }
    let changes: [Change]
}
