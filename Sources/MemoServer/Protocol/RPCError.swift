import MemoNotebook

/// A JSON-RPC error answer: a code from the open set below and a message for people.
struct RPCError: Error, Equatable {
    /// JSON-RPC 2.0 and LSP error codes, as a struct so unknown ones can be carried too.
    struct Code: RawRepresentable, Equatable, Sendable {
        let rawValue: Int

        static let parseError = Code(rawValue: -32700)
        static let invalidRequest = Code(rawValue: -32600)
        static let methodNotFound = Code(rawValue: -32601)
        static let invalidParams = Code(rawValue: -32602)
        static let internalError = Code(rawValue: -32603)
        /// LSP: a request before `initialize`.
        static let serverNotInitialized = Code(rawValue: -32002)
        /// memo: the memo asked for does not exist.
        static let memoNotFound = Code(rawValue: -32001)
        /// LSP's RequestFailed: the store cannot be used.
        static let storeFailure = Code(rawValue: -32803)
        /// LSP's RequestFailed: a valid request the server declines; the message says why.
        static let requestFailed = Code(rawValue: -32803)
    }

    let code: Code
    let message: String

    static func parseError(_ message: String) -> RPCError { RPCError(code: .parseError, message: message) }
    static func invalidRequest(_ message: String) -> RPCError { RPCError(code: .invalidRequest, message: message) }
    static func invalidParams(_ message: String) -> RPCError { RPCError(code: .invalidParams, message: message) }

    static func methodNotFound(_ method: String) -> RPCError {
        RPCError(code: .methodNotFound, message: "method '\(method)' not found")
    }

    var json: JSONValue {
        .object([("code", .integer(Int64(code.rawValue))), ("message", .string(message))])
    }
}
