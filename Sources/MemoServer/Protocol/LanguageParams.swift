/// The Language Server Protocol messages memo reads, as plain Codable types.
///
/// See https://microsoft.github.io/language-server-protocol/specifications/lsp/3.17/specification/

struct InitializeParams: Decodable {
    struct Capabilities: Decodable {
        struct General: Decodable {
            let positionEncodings: [String]?
        }
        let general: General?
    }
    let capabilities: Capabilities?
}

struct TextDocumentIdentifier: Decodable {
    let uri: String
}

struct TextDocumentItem: Decodable {
    let uri: String
    let version: Int?
    let text: String
}

struct DidOpenParams: Decodable {
    let textDocument: TextDocumentItem
}

struct DidChangeParams: Decodable {
    struct Change: Decodable {
        let text: String
    }
    let textDocument: TextDocumentIdentifier
    let contentChanges: [Change]
}

struct DidCloseParams: Decodable {
    let textDocument: TextDocumentIdentifier
}

struct Position: Decodable, Equatable {
    let line: Int
    let character: Int
}

/// `textDocument/completion` and `textDocument/hover`.
struct TextDocumentPositionParams: Decodable {
    let textDocument: TextDocumentIdentifier
    let position: Position
}
