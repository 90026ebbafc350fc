#ifndef MEMO_CMALLOC_SHIM_H
#define MEMO_CMALLOC_SHIM_H

#include <stdlib.h>

/// Raises the C library's (glibc's) limits for giving freed heap back to the system, as it
/// raises them itself when the program frees a block it had mapped: a block of `bytes` is
/// mapped and freed, so the library then maps only blocks larger than it and keeps up to
/// twice it of freed heap, and goes on raising both for larger blocks freed later. (Setting
/// them with `mallopt` would stop that adjustment.) The pointer is volatile so that the
/// compiler keeps the pair of calls.
static inline void memo_raise_heap_limits(size_t bytes) {
    void *volatile block = malloc(bytes);
    free(block);
}

#endif
