#ifndef MEMO_CMALLOC_SHIM_H
#define MEMO_CMALLOC_SHIM_H

/// The C library's allocator settings (glibc's mallopt): Swift's Glibc module does not carry
/// this header.
#include <malloc.h>

#endif
