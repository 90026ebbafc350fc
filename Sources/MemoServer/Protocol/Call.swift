/// A method memo knows, with its params decoded into their own type. Requests and
/// notifications have separate tables: a request named like a notification is not found,
/// and a notification named like a request is ignored, as LSP asks.
enum Call {
    case initialize(InitializeParams), shutdown
    case add(AddParams), get(GetParams), list(ListParams), update(UpdateParams), delete(DeleteParams)
    case search(SearchParams), tags, execute(ExecuteParams), watch(ListParams), unwatch(UnwatchParams)
    case completion(TextDocumentPositionParams), hover(TextDocumentPositionParams)
    case definition(TextDocumentPositionParams), references(ReferenceParams), documentLinks(TextDocumentParams),
        inlayHints(TextDocumentRangeParams)
    case codeActions(TextDocumentRangeParams), workspaceSymbols(WorkspaceSymbolParams), executeCommand(
        ExecuteCommandParams)
    case codeLenses(TextDocumentParams), documentSymbols(TextDocumentParams)
    case prepareRename(TextDocumentPositionParams), rename(RenameParams)
    case exit, didOpen(DidOpenParams), didChange(DidChangeParams), didClose(TextDocumentParams), didSave(DidSaveParams)
    case initialized, didChangeWatchedFiles(DidChangeWatchedFilesParams), didChangeWorkspaceFolders(
        DidChangeWorkspaceFoldersParams)

    /// The request `method` with its params, or nil for a method memo does not serve.
    static func request(_ method: String, _ params: ParamsReader) throws(RPCError) -> Call? {
        switch method {
        case "initialize": .initialize(try params.read())
        case "shutdown": .shutdown
        case "memo/add": .add(try params.read())
        case "memo/get": .get(try params.read())
        case "memo/list": .list(try params.read())
        case "memo/update": .update(try params.read())
        case "memo/delete": .delete(try params.read())
        case "memo/search": .search(try params.read())
        case "memo/tags": .tags
        case "memo/execute": .execute(try params.read())
        case "memo/watch": .watch(try params.read())
        case "memo/unwatch": .unwatch(try params.read())
        case "textDocument/completion": .completion(try params.read())
        case "textDocument/hover": .hover(try params.read())
        case "textDocument/definition": .definition(try params.read())
        case "textDocument/references": .references(try params.read())
        case "textDocument/documentLink": .documentLinks(try params.read())
        case "textDocument/inlayHint": .inlayHints(try params.read())
        case "textDocument/codeAction": .codeActions(try params.read())
        case "workspace/symbol": .workspaceSymbols(try params.read())
        case "workspace/executeCommand": .executeCommand(try params.read())
        case "textDocument/codeLens": .codeLenses(try params.read())
        case "textDocument/documentSymbol": .documentSymbols(try params.read())
        case "textDocument/prepareRename": .prepareRename(try params.read())
        case "textDocument/rename": .rename(try params.read())
        default: nil
        }
    }

    /// The notification `method` with its params, or nil for one memo ignores.
    static func notification(_ method: String, _ params: ParamsReader) throws(RPCError) -> Call? {
        switch method {
        case "exit": .exit
        case "textDocument/didOpen": .didOpen(try params.read())
        case "textDocument/didChange": .didChange(try params.read())
        case "textDocument/didClose": .didClose(try params.read())
        case "textDocument/didSave": .didSave(try params.read())
        case "initialized": .initialized
        case "workspace/didChangeWatchedFiles": .didChangeWatchedFiles(try params.read())
        case "workspace/didChangeWorkspaceFolders": .didChangeWorkspaceFolders(try params.read())
        default: nil
        }
    }
}
