#ifndef MEMO_CSTOREIMAGE_H
#define MEMO_CSTOREIMAGE_H

#include <stddef.h>

/// The bytes of an empty memo store file at the current schema version, as the migrations
/// make it (`EmptyStoreImage` in MemoStore), and their count in `size`. Generated into
/// EmptyStoreImage.c by scripts/regenerate-store-image.
const unsigned char *memo_empty_store_image(size_t *size);

#endif
