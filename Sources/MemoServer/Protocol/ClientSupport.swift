/// The parts of a client's capabilities (`initialize`) that decide how the server answers
/// symbols, rename, `memo.new` and store changes.
struct TextDocumentCapabilities: Decodable {
    struct DocumentSymbol: Decodable {
        let hierarchicalDocumentSymbolSupport: Bool?
    }
    struct Rename: Decodable {
        let prepareSupport: Bool?
    }
    let documentSymbol: DocumentSymbol?
    let rename: Rename?
}

struct WindowCapabilities: Decodable {
    struct ShowDocument: Decodable {
        let support: Bool?
    }
    let showDocument: ShowDocument?
}

/// `workspace.codeLens` and `workspace.inlayHint`: whether the client takes the server's
/// request to ask for them again.
struct RefreshCapability: Decodable {
    let refreshSupport: Bool?
}

/// `workspace.workspaceEdit`: whether the client takes edits of a document's given version
/// (`documentChanges`), which it applies only to that version.
struct WorkspaceEditCapability: Decodable {
    let documentChanges: Bool?
}

/// What the client said it supports, read once at `initialize`.
struct ClientSupport {
    /// `DocumentSymbol` trees rather than flat `SymbolInformation` lists.
    var hierarchicalSymbols = false
    var prepareRename = false
    var showDocument = false
    var codeLensRefresh = false
    var inlayHintRefresh = false
    var versionedEdits = false

    init() {}

    init(_ capabilities: InitializeParams.Capabilities?) {
        hierarchicalSymbols = capabilities?.textDocument?.documentSymbol?.hierarchicalDocumentSymbolSupport == true
        prepareRename = capabilities?.textDocument?.rename?.prepareSupport == true
        showDocument = capabilities?.window?.showDocument?.support == true
        codeLensRefresh = capabilities?.workspace?.codeLens?.refreshSupport == true
        inlayHintRefresh = capabilities?.workspace?.inlayHint?.refreshSupport == true
        versionedEdits = capabilities?.workspace?.workspaceEdit?.documentChanges == true
    }
}
