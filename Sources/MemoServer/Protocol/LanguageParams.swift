/// The Language Server Protocol messages memo reads, as plain Codable types.
///
/// See https://microsoft.github.io/language-server-protocol/specifications/lsp/3.17/specification/

struct InitializeParams: Decodable {
    struct Capabilities: Decodable {
        struct General: Decodable {
            let positionEncodings: [String]?
        }
        struct Workspace: Decodable {
            struct DynamicRegistration: Decodable {
                let dynamicRegistration: Bool?
            }
            /// Whether the client applies edits the server asks for (`workspace/applyEdit`).
            let applyEdit: Bool?
            let codeLens: RefreshCapability?
            let inlayHint: RefreshCapability?
            /// Whether the client reports changed files when asked to (`client/registerCapability`).
            let didChangeWatchedFiles: DynamicRegistration?
            let workspaceEdit: WorkspaceEditCapability?
        }
        let general: General?
        let workspace: Workspace?
        let textDocument: TextDocumentCapabilities?
        let window: WindowCapabilities?
    }
    let capabilities: Capabilities?
    /// The folders whose files the server indexes; else `rootUri`, else `rootPath`.
    let workspaceFolders: [WorkspaceFolder]?
    let rootUri: String?
    let rootPath: String?
}

struct TextDocumentIdentifier: Decodable {
    let uri: String
}

/// Params that name a document alone: `textDocument/didClose`, `textDocument/documentLink`.
struct TextDocumentParams: Decodable {
    let textDocument: TextDocumentIdentifier
}

/// Params that name a part of a document: `textDocument/inlayHint` (the hints of the lines
/// in `range`), `textDocument/codeAction` (the actions for the selection `range`).
struct TextDocumentRangeParams: Decodable {
    let textDocument: TextDocumentIdentifier
    let range: PositionRange
}

struct TextDocumentItem: Decodable {
    let uri: String
    let languageId: String?
    let version: Int?
    let text: String
}

struct VersionedTextDocumentIdentifier: Decodable {
    let uri: String
    let version: Int?
}

struct DidOpenParams: Decodable {
    let textDocument: TextDocumentItem
}

/// Full or incremental changes: a change with a `range` replaces that part of the text.
struct DidChangeParams: Decodable {
    struct Change: Decodable {
        let range: PositionRange?
        let text: String
    }
    let textDocument: VersionedTextDocumentIdentifier
    let contentChanges: [Change]
}

/// An LSP `Range`: from `start` up to, not including, `end`.
/// A range, start first: one a client sends end first (a selection made backwards) is
/// read the right way round, so its text and an edit of it are the selection's.
struct PositionRange: Decodable, Equatable {
    let start: Position
    let end: Position

    init(start: Position, end: Position) {
        (self.start, self.end) =
            (start.line, start.character) <= (end.line, end.character) ? (start, end) : (end, start)
    }

    private enum CodingKeys: String, CodingKey { case start, end }

    init(from decoder: Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        self.init(
            start: try container.decode(Position.self, forKey: .start),
            end: try container.decode(Position.self, forKey: .end))
    }
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

/// `textDocument/references`: the place, and whether the memo's own file is wanted too.
struct ReferenceParams: Decodable {
    struct Context: Decodable {
        let includeDeclaration: Bool?
    }

    let textDocument: TextDocumentIdentifier
    let position: Position
    let context: Context?
}

/// `textDocument/didSave`; `text` when the server asked for it (`save.includeText`).
struct DidSaveParams: Decodable {
    let textDocument: TextDocumentIdentifier
    let text: String?
}

/// `textDocument/rename`: the place, and the name it is to have.
struct RenameParams: Decodable {
    let textDocument: TextDocumentIdentifier
    let position: Position
    let newName: String
}

/// `workspace/symbol`.
struct WorkspaceSymbolParams: Decodable {
    let query: String
}

/// `workspace/executeCommand`: of the code actions, whose one argument is the selection
/// (`arguments`), or of `memo.new`, whose optional argument is a text (`texts`).
struct ExecuteCommandParams: Decodable {
    struct Selection: Decodable {
        let uri: String
        let range: PositionRange
    }
    let command: String
    let arguments: [Selection]?
    let texts: [String]?

    private enum CodingKeys: String, CodingKey { case command, arguments }

    init(from decoder: Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        command = try container.decode(String.self, forKey: .command)
        let isNewMemo = command == NewMemoCommand.name
        arguments = isNewMemo ? nil : try container.decodeIfPresent([Selection].self, forKey: .arguments)
        texts = isNewMemo ? try container.decodeIfPresent([String].self, forKey: .arguments) : nil
    }
}
