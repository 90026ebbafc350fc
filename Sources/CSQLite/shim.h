#ifndef MEMO_CSQLITE_SHIM_H
#define MEMO_CSQLITE_SHIM_H

#include <sqlite3.h>

/// SQLITE_TRANSIENT is a cast macro Swift cannot import: SQLite copies bound text at once.
static inline sqlite3_destructor_type memo_sqlite_transient(void) {
    return SQLITE_TRANSIENT;
}

/// Turns off SQLite's count of the memory it holds, which memo never reads: with it on, each
/// of SQLite's allocations takes a global mutex. sqlite3_config is variadic, so Swift calls
/// it here; it must run before the first connection opens.
static inline int memo_sqlite_stop_counting_memory(void) {
    return sqlite3_config(SQLITE_CONFIG_MEMSTATUS, 0);
}

#endif
