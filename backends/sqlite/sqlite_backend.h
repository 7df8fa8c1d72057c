/* The SQLite backend's table, its pure error classifier (testable without
 * a database) and its debug counters. */
#ifndef RPB_SQLITE_BACKEND_H
#define RPB_SQLITE_BACKEND_H

#include "store.h"

extern const struct rpb_backend rpb_backend_sqlite;

/* Maps an SQLite result code, primary or extended, to an error class. */
enum rpb_status rpb_sqlite_classify(int code);

/* SQLite statements a session stepped since it opened, BEGIN and COMMIT
 * included (a transaction of one put steps one; a scan counts once). */
uint64_t rpb_sqlite_statements(const struct rpb_session *s);
/* The durability level a session really runs with, asked of SQLite itself:
 * PRAGMA synchronous (0 OFF, 1 NORMAL, 2 FULL, 3 EXTRA; -1 on error). */
int rpb_sqlite_synchronous(const struct rpb_session *s);

#endif
