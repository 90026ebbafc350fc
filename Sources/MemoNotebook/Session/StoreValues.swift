// The store's query values that a face builds and hands to the notebook (`Notebook.memos`,
// `Command.search`, a `--tag` read as the command line reads it), re-exported one by one:
// a face imports MemoNotebook, never MemoStore, and so reaches none of the store itself.

@_exported import struct MemoStore.MemoFilter
@_exported import struct MemoStore.MemoQuery
@_exported import struct MemoStore.SearchQuery
@_exported import enum MemoStore.TagName
