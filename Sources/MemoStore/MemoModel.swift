/// The values the store reads and writes (`Memo`, `Timestamp`, `StoreError`…) live in
/// MemoModel, which the faces depend on without depending on the store; every module that
/// imports MemoStore sees them as before.
@_exported import MemoModel
