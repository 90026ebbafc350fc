import MemoModel
import MemoNotebook

extension RPCError {
    /// Runs a notebook operation, answering its failures with the codes of docs/REFERENCE.md,
    /// Server.
    static func answering<T>(_ body: () throws -> T) throws(RPCError) -> T {
        do {
            return try body()
        } catch let error as RPCError {
            throw error
        } catch let error as StoreError {
            switch error {
            case .refused(.memoNotFound): throw RPCError(code: .memoNotFound, message: error.description)
            case .refused: throw .invalidParams(error.description)
            case .unexpected: throw RPCError(code: .internalError, message: error.description)
            case .notAMemoStore, .newerSchema, .brokenReferences, .cannotOpen, .invalidSyncMemo, .interrupted, .sqlite,
                .remote:
                throw RPCError(code: .storeFailure, message: error.description)
            }
        } catch {
            throw .invalidParams(errorMessage(error))
        }
    }
}
