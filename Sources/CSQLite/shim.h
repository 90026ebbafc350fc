#ifndef MEMO_CSQLITE_SHIM_H
#define MEMO_CSQLITE_SHIM_H

#include <sqlite3.h>
#include <fcntl.h>
#include <stdio.h>

#ifndef F_OFD_SETLK
#define F_OFD_SETLK 37
#endif

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

/// Makes the tables a virtual table keeps its data in (FTS5's `memo_search_data`, …)
/// read-only to SQL that memo runs: only the virtual table's own statements, which SQLite
/// runs while it runs another, write them. sqlite3_db_config is variadic, so Swift calls it here.
static inline int memo_sqlite_defend(sqlite3 *db) {
    return sqlite3_db_config(db, SQLITE_DBCONFIG_DEFENSIVE, 1, (int *)0);
}

/// Write-locks the bytes of `fd`'s file where every SQLite connection of another process
/// holds its locks (a connection in WAL mode holds a read lock there as long as it is open),
/// without waiting: 0 when no such connection exists, -1 otherwise. An open file description
/// lock, so closing another descriptor of the file in this process does not end it; it ends
/// when `fd` is closed. Swift cannot call the variadic fcntl with F_OFD_SETLK.
static inline int memo_lock_sqlite_lock_bytes(int fd) {
    struct flock lock = {0};
    lock.l_type = F_WRLCK;
    lock.l_whence = SEEK_SET;
    lock.l_start = 0x40000000; /* SQLite's PENDING_BYTE, then its RESERVED and SHARED bytes */
    lock.l_len = 512;
    return fcntl(fd, F_OFD_SETLK, &lock);
}

#endif
