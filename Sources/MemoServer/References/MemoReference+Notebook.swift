import MemoModel
import MemoNotebook

extension MemoReference {
    /// The memo it names in `notebook`, or nil when there is none.
    func memo(in notebook: Notebook) throws(StoreError) -> Memo? {
        switch self {
        case .id(let id): try notebook.memo(id: id)
        case .uuid(let uuid): try notebook.memo(uuid: uuid)
        case .handle(let handle): try notebook.memo(handle: handle)
        }
    }
}
