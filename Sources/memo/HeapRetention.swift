import CMalloc

/// Lets the C library keep up to 2 MiB of freed heap for the next allocation instead of
/// giving it back to the system at once. Each change to a store allocates SQLite's journal
/// and page copies and frees them as it commits; with the library's starting limit (128 KiB),
/// a server or a script adding memo after memo gave that memory back and faulted it in again
/// each time: 2.5 page faults and 2 `brk` calls an add, a quarter of a pipelined `memo/add`'s
/// time. The limits stay the library's own, raised further as larger blocks are freed (fixing
/// them instead made every keystroke in a note of megabytes map its copies afresh).
func retainFreedHeap() {
    memo_raise_heap_limits(1 << 20)
}
