#ifndef MEMO_CFILEATTRIBUTES_SHIM_H
#define MEMO_CFILEATTRIBUTES_SHIM_H

/// Extended attributes (glibc): Swift's Glibc module does not carry this header.
#include <sys/xattr.h>

#endif
