import MemoNotebook

/// What memo tells the client at `initialize` it can do, with the position encoding agreed;
/// `prepareProvider` for a client that asks before renaming.
enum ServerCapabilities {
    static func json(encoding: PositionEncoding, client: ClientSupport = ClientSupport()) -> JSONValue {
        .object([
            (
                "capabilities",
                .object([
                    ("positionEncoding", .string(encoding.rawValue)),
                    (
                        "textDocumentSync",
                        .object([
                            ("openClose", .bool(true)), ("change", .integer(2)),
                            ("save", .object([("includeText", .bool(true))]))
                        ])
                    ),
                    (
                        "completionProvider",
                        .object([("triggerCharacters", .array(["@", "-", "#", ":"].map(JSONValue.string)))])
                    ),
                    ("hoverProvider", .bool(true)),
                    ("definitionProvider", .bool(true)),
                    ("referencesProvider", .bool(true)),
                    ("documentLinkProvider", .object([("resolveProvider", .bool(false))])),
                    ("inlayHintProvider", .bool(true)),
                    ("workspaceSymbolProvider", .bool(true)),
                    ("codeLensProvider", .object([("resolveProvider", .bool(false))])),
                    ("documentSymbolProvider", .bool(true)),
                    (
                        "renameProvider",
                        client.prepareRename ? .object([("prepareProvider", .bool(true))]) : .bool(true)
                    ),
                    (
                        "workspace",
                        .object([
                            (
                                "workspaceFolders",
                                .object([("supported", .bool(true)), ("changeNotifications", .bool(true))])
                            )
                        ])
                    ),
                    (
                        "codeActionProvider",
                        .object([
                            ("codeActionKinds", .array([.string("refactor.extract"), .string("refactor.rewrite")]))
                        ])
                    ),
                    (
                        "executeCommandProvider",
                        .object([
                            (
                                "commands",
                                .array([
                                    .string(SelectionActions.saveCommand), .string(SelectionActions.moveCommand),
                                    .string(NewMemoCommand.name)
                                ])
                            )
                        ])
                    )
                ])
            ),
            ("serverInfo", .object([("name", .string("memo")), ("version", .string(memoVersion))]))
        ])
    }
}
