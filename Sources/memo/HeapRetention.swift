import CMalloc

/// Lets the C library keep up to 2 MiB of freed heap for the next allocation instead of
/// giving it back to the system at once. Each change to a store allocates SQLite's journal
/// and page copies and frees them as it commits; with the library's default (128 KiB), a
/// server or a script adding memo after memo gave that memory back and faulted it in again
/// each time: 3 page faults and 2 `brk` calls an add, a quarter of a pipelined `memo/add`'s
/// time. Blocks of 1 MiB and more still come from `mmap` and go back when freed, which is
/// where the library's own adjustment would have put the two limits after freeing one.
func retainFreedHeap() {
    mallopt(M_MMAP_THRESHOLD, 1 << 20)
    mallopt(M_TRIM_THRESHOLD, 2 << 20)
}
