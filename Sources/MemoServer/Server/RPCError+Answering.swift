import MemoNotebook
import MemoStore

extension RPCError {
    /// Runs a notebook operation, answering its failures with the codes of SPEC §8.
    static func answering<T>(_ body: () throws -> T) throws(RPCError) -> T {
        do {
            return try body()
        } catch let error as RPCError {
            throw error
        } catch let error as StoreError {
            switch error {
            case .memoNotFound: throw RPCError(code: .memoNotFound, message: error.description)
            case _ where error.isStoreUnusable: throw RPCError(code: .storeFailure, message: error.description)
            case .interrupted, .sqlite: throw RPCError(code: .storeFailure, message: error.description)
            default: throw .invalidParams(error.description)
            }
        } catch {
            throw .invalidParams(errorMessage(error))
        }
    }
}
